"""Types the package's signatures share."""

from typing import Any, Mapping, Union

TargetLike = Union[str, Mapping[str, Any]]
"""A provider's name (``"neutral"``, ``"anthropic"``, ``"openai-chat"``,
``"openai-responses"``), or a dict that starts from one (``"provider"``, neutral when absent)
and changes what goes out as media: ``"images"`` and ``"audio"`` (lists of media types),
``"pdf"`` (bool), ``"max_image_bytes"``, ``"max_audio_bytes"``, ``"max_pdf_bytes"`` (int, or
``None`` for no limit)."""
