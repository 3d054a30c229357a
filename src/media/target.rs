//! Which media a model API accepts: the policy every lane checks media against, and the
//! shape its JSON takes.

const MIB: u64 = 1024 * 1024;

/// The shape a target's JSON takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Provider {
    /// The crate's own neutral JSON.
    Neutral,
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Chat Completions.
    #[cfg_attr(feature = "cli", value(name = "openai-chat"))]
    OpenAiChat,
    /// OpenAI Responses.
    #[cfg_attr(feature = "cli", value(name = "openai-responses"))]
    OpenAiResponses,
}

impl Provider {
    /// Every provider, with the name the CLI, config files and the bindings use for it.
    pub const NAMES: [(Provider, &'static str); 4] = [
        (Provider::Neutral, "neutral"),
        (Provider::Anthropic, "anthropic"),
        (Provider::OpenAiChat, "openai-chat"),
        (Provider::OpenAiResponses, "openai-responses"),
    ];

    /// The provider's name as the CLI spells it: `neutral`, `anthropic`, `openai-chat`,
    /// `openai-responses`.
    ///
    /// ```
    /// use mcp_agent_view::Provider;
    /// assert_eq!(Provider::OpenAiChat.name(), "openai-chat");
    /// assert_eq!("openai-chat".parse::<Provider>()?, Provider::OpenAiChat);
    /// # Ok::<(), mcp_agent_view::Error>(())
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("neutral", |(_, n)| n)
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Provider {
    type Err = crate::error::Error;

    /// Reads the CLI's names, exactly: `neutral`, `anthropic`, `openai-chat`,
    /// `openai-responses`. Anything else is an error of kind
    /// [`UnknownProvider`](crate::error::ErrorKind::UnknownProvider).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        crate::error::named(&Self::NAMES, name, crate::error::ErrorKind::UnknownProvider, "provider")
    }
}

/// Written as its name (`"openai-chat"`), as a host's config file holds it.
impl serde::Serialize for Provider {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Read from its name (`"openai-chat"`), as a host's config file holds it.
impl<'de> serde::Deserialize<'de> for Provider {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// An image format this crate can tell from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ImageFormat {
    /// `image/png`.
    Png,
    /// `image/jpeg`.
    Jpeg,
    /// `image/gif`.
    Gif,
    /// `image/webp`.
    Webp,
}

/// An audio format this crate can tell from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AudioFormat {
    /// `audio/wav`.
    Wav,
    /// `audio/mpeg`.
    Mp3,
    /// `audio/ogg`.
    Ogg,
    /// `audio/flac`.
    Flac,
}

impl ImageFormat {
    /// Every image format this crate can tell.
    pub const ALL: [ImageFormat; 4] = [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Gif, ImageFormat::Webp];

    /// The media type.
    #[must_use]
    pub fn mime_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Webp => "image/webp",
        }
    }
}

impl AudioFormat {
    /// Every audio format this crate can tell.
    pub const ALL: [AudioFormat; 4] = [AudioFormat::Wav, AudioFormat::Mp3, AudioFormat::Ogg, AudioFormat::Flac];

    /// The media type.
    #[must_use]
    pub fn mime_type(self) -> &'static str {
        match self {
            AudioFormat::Wav => "audio/wav",
            AudioFormat::Mp3 => "audio/mpeg",
            AudioFormat::Ogg => "audio/ogg",
            AudioFormat::Flac => "audio/flac",
        }
    }
}

/// What a model API accepts as media, and the shape its JSON takes.
///
/// Every media block is checked against the target before it goes out as media: its base64
/// must decode, its first bytes must show a format the target accepts (the real format is used
/// where it differs from the declared one), and its decoded size must be within the limit.
/// Media that fails a check goes out as its marker with the reason, e.g.
/// `[image: image/svg+xml, ~3KB, not sent: unsupported type]`.
///
/// Start from a provider's default and adjust the fields:
///
/// ```
/// use mcp_agent_view::{provider::ImageFormat, Target};
///
/// let mut target = Target::anthropic();
/// target.max_image_bytes = Some(1024 * 1024);
/// target.images.retain(|f| *f != ImageFormat::Gif);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Target {
    /// The JSON shape.
    pub provider: Provider,
    /// The image formats that go out as images.
    pub images: Vec<ImageFormat>,
    /// The largest decoded image, in bytes.
    pub max_image_bytes: Option<u64>,
    /// The audio formats that go out as audio.
    pub audio: Vec<AudioFormat>,
    /// The largest decoded audio, in bytes.
    pub max_audio_bytes: Option<u64>,
    /// Whether a PDF goes out as a document (else as its `[file: application/pdf, …]` marker).
    pub pdf: bool,
    /// The largest decoded PDF, in bytes.
    pub max_pdf_bytes: Option<u64>,
    /// The `detail` of every OpenAI Responses `input_image` (its SDK's type requires one).
    pub image_detail: ImageDetail,
}

/// The `detail` an OpenAI image part asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ImageDetail {
    /// `auto`: the model decides (the default).
    #[default]
    Auto,
    /// `low`.
    Low,
    /// `high`.
    High,
}

impl ImageDetail {
    /// As the API spells it: `auto`, `low`, `high`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ImageDetail::Auto => "auto",
            ImageDetail::Low => "low",
            ImageDetail::High => "high",
        }
    }
}

impl Default for Target {
    fn default() -> Self {
        Target::neutral()
    }
}

impl Target {
    /// The crate's neutral JSON: every image and audio format this crate can tell, PDFs as
    /// documents, no size limits. Media is still checked (base64, first bytes).
    #[must_use]
    pub fn neutral() -> Self {
        Target {
            provider: Provider::Neutral,
            images: ImageFormat::ALL.to_vec(),
            max_image_bytes: None,
            audio: AudioFormat::ALL.to_vec(),
            max_audio_bytes: None,
            pdf: true,
            max_pdf_bytes: None,
            image_detail: ImageDetail::Auto,
        }
    }

    /// Anthropic Messages: PNG, JPEG, GIF and WebP images up to 5 MiB; no audio; PDFs up to
    /// 32 MiB as documents.
    #[must_use]
    pub fn anthropic() -> Self {
        Target {
            provider: Provider::Anthropic,
            images: ImageFormat::ALL.to_vec(),
            max_image_bytes: Some(5 * MIB),
            audio: Vec::new(),
            max_audio_bytes: None,
            pdf: true,
            max_pdf_bytes: Some(32 * MIB),
            image_detail: ImageDetail::Auto,
        }
    }

    /// OpenAI Chat Completions: PNG, JPEG, GIF and WebP images up to 20 MiB; PDFs up to
    /// 32 MiB as file parts; no audio, which only audio-capable models take (audio goes as its
    /// marker; [`Target::openai_chat_audio`] sends it).
    #[must_use]
    pub fn openai_chat() -> Self {
        Target {
            audio: Vec::new(),
            max_audio_bytes: None,
            ..Target::openai_chat_audio()
        }
    }

    /// OpenAI Chat Completions for a model that takes audio (`gpt-4o-audio-preview` and its
    /// kind): as [`Target::openai_chat`], and WAV and MP3 audio (`input_audio`) up to 20 MiB.
    #[must_use]
    pub fn openai_chat_audio() -> Self {
        Target {
            provider: Provider::OpenAiChat,
            images: ImageFormat::ALL.to_vec(),
            max_image_bytes: Some(20 * MIB),
            audio: vec![AudioFormat::Wav, AudioFormat::Mp3],
            max_audio_bytes: Some(20 * MIB),
            pdf: true,
            max_pdf_bytes: Some(32 * MIB),
            image_detail: ImageDetail::Auto,
        }
    }

    /// OpenAI Responses: PNG, JPEG, GIF and WebP images up to 20 MiB; no audio (a function
    /// call's output takes text, images and files); PDFs up to 32 MiB as files.
    #[must_use]
    pub fn openai_responses() -> Self {
        Target {
            provider: Provider::OpenAiResponses,
            audio: Vec::new(),
            max_audio_bytes: None,
            ..Target::openai_chat()
        }
    }

    /// The default target of a provider.
    #[must_use]
    pub fn for_provider(provider: Provider) -> Self {
        match provider {
            Provider::Neutral => Target::neutral(),
            Provider::Anthropic => Target::anthropic(),
            Provider::OpenAiChat => Target::openai_chat(),
            Provider::OpenAiResponses => Target::openai_responses(),
        }
    }
}
