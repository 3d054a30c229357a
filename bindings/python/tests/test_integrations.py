"""The integrations package without the frameworks: importing it works, importing one whose
framework is missing is one error naming the extra to install."""

from __future__ import annotations

import importlib
import importlib.util

import pytest

import mcp_agent_view.integrations  # noqa: F401 - importing it is the test

FRAMEWORKS = {"langchain": "langchain_mcp_adapters", "pydantic_ai": "pydantic_ai", "openai_agents": "agents"}


@pytest.mark.parametrize("name", list(FRAMEWORKS))
def test_an_integration_without_its_framework_names_the_extra(name: str) -> None:
    if importlib.util.find_spec(FRAMEWORKS[name]) is not None:
        pytest.skip(f"{FRAMEWORKS[name]} is installed here")
    with pytest.raises(ModuleNotFoundError) as raised:
        importlib.import_module(f"mcp_agent_view.integrations.{name}")
    extra = name.replace("_", "-")
    assert f"pip install 'mcp-agent-view[{extra}]'" in str(raised.value)
