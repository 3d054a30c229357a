//! How a class reads as text: sizes, cleaned labels, and every marker and stub string. Each
//! string the agent can read is written here, once.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::classify::{BlobForm, Class, Reference};
use crate::media::check::NotSent;
use crate::reference::Stubs;
use crate::text::{base64_decoded_len, format_size};
use crate::text::{push_clean_to, push_label_to, push_mime, push_size};
use crate::wire::RpcError;

/// Where a block arrived from, as the reference stub tells the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Provenance {
    /// A tool result in the conversation history: `from tool result`.
    ToolResult,
    /// An attachment on a pushed event: `attachment on push event`.
    PushEvent,
    /// An attachment on a channel message: `attachment on channel message`.
    ChannelMessage,
    /// Content injected into the context: `context injection`.
    ContextInjection,
    /// A code-execution script's result: `in script result`.
    ScriptResult,
    /// A prompt's message: `from prompt`.
    Prompt,
    /// A message of a server's sampling request, for the host's own model:
    /// `from sampling request`.
    Sampling,
}

impl Provenance {
    /// Every provenance and its name, as the CLI and the bindings spell it.
    pub const NAMES: [(Provenance, &'static str); 7] = [
        (Provenance::ToolResult, "tool-result"),
        (Provenance::PushEvent, "push-event"),
        (Provenance::ChannelMessage, "channel-message"),
        (Provenance::ContextInjection, "context-injection"),
        (Provenance::ScriptResult, "script-result"),
        (Provenance::Prompt, "prompt"),
        (Provenance::Sampling, "sampling"),
    ];

    /// The words the stub uses.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Provenance::ToolResult => "from tool result",
            Provenance::PushEvent => "attachment on push event",
            Provenance::ChannelMessage => "attachment on channel message",
            Provenance::ContextInjection => "context injection",
            Provenance::ScriptResult => "in script result",
            Provenance::Prompt => "from prompt",
            Provenance::Sampling => "from sampling request",
        }
    }
}

impl std::str::FromStr for Provenance {
    type Err = crate::error::Error;

    /// Reads the names of [`Provenance::NAMES`], exactly; anything else is an error of kind
    /// [`UnknownProvenance`](crate::error::ErrorKind::UnknownProvenance) listing them.
    ///
    /// ```
    /// use mcp_agent_view::Provenance;
    /// assert_eq!("push-event".parse::<Provenance>()?, Provenance::PushEvent);
    /// assert!("push".parse::<Provenance>().is_err());
    /// # Ok::<(), mcp_agent_view::Error>(())
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        crate::error::named(
            &Self::NAMES,
            name,
            crate::error::ErrorKind::UnknownProvenance,
            "provenance",
        )
    }
}

/// Writes what the agent reads for `class`: text verbatim, media as a marker, a reference as
/// its stub, and the marker of a withheld, invalid or unsupported block. A stub's id is left
/// to `stubs`, which registers it once the lane knows it keeps it.
pub(crate) fn show(class: &Class<'_>, provenance: Provenance, stubs: &mut Stubs<'_>, out: &mut String) {
    match class {
        Class::Text { text } | Class::EmbeddedText { text, .. } => out.push_str(text),
        Class::Media(media) => media_marker(out, media.kind.as_str(), Some(media.mime_type), Some(media.size), None),
        Class::EmbeddedBlob(blob) => match &blob.form {
            BlobForm::Text(text) => out.push_str(text),
            BlobForm::Media(kind) => {
                media_marker(out, kind.as_str(), blob.mime_type, Some(blob.size), None);
            }
            BlobForm::File => media_marker(out, "file", blob.mime_type, Some(blob.size), None),
            BlobForm::NotText(reason) => {
                media_marker(out, "file", blob.mime_type, Some(blob.size), Some(reason));
            }
        },
        Class::Reference(reference) => {
            stub(out, stubs, reference, provenance);
        }
        Class::Withheld { .. } => out.push_str(WITHHELD),
        Class::Invalid { reason, .. } => {
            let _ = write!(out, "[unrecognized content block: {reason}]");
        }
        Class::Unsupported { type_name } => {
            out.push_str("[unsupported result type: ");
            out.push_str(crate::text::type_label(type_name).as_deref().unwrap_or("unnamed"));
            out.push(']');
        }
    }
}

/// `[request failed: error <code>: <message>]`, what a JSON-RPC error reads as on a lane. The
/// server's message is cleaned as a label is and cut at [`MESSAGE_MAX_CHARS`].
pub(crate) fn rpc_error(error: &RpcError<'_>) -> String {
    let mut out = String::from("[request failed: ");
    if let Some(code) = error.code {
        let _ = write!(out, "error {code}: ");
    }
    if !push_clean_to(&mut out, &error.message, MESSAGE_MAX_CHARS) {
        out.push_str("no message");
    }
    out.push(']');
    out
}

/// `Tool call <name> failed: <message>`, what the model reads when a call failed at the
/// protocol level. The name and the message are cleaned as labels are, the message cut at
/// [`MESSAGE_MAX_CHARS`].
pub(crate) fn tool_call_failed(name: &str, message: &str) -> String {
    let mut out = String::from("Tool call ");
    push_label(&mut out, name, "unnamed");
    out.push_str(" failed: ");
    if !push_clean_to(&mut out, message, MESSAGE_MAX_CHARS) {
        out.push_str("no message");
    }
    out
}

/// `[prompt message claimed role: <role>; shown as user]`, what opens a prompt message whose
/// role was not `user` or `assistant` (`claimed no role` where it had none). The role is
/// cleaned as a label is and cut at 40 characters.
pub(crate) fn claimed_role(role: Option<&str>) -> String {
    let mut out = String::from("[prompt message claimed ");
    let before = out.len();
    out.push_str("role: ");
    if !role.is_some_and(|role| push_label_to(&mut out, role, 40)) {
        out.truncate(before);
        out.push_str("no role");
    }
    out.push_str("; shown as user]");
    out
}

/// The longest a server's message (a JSON-RPC error's) may be once cleaned, in characters,
/// `…` included.
pub const MESSAGE_MAX_CHARS: usize = 300;

/// What the model reads when every block of a tool result was meant only for the user.
pub const DISPLAYED_TO_USER: &str = "[output displayed to user]";

/// What the model reads when a tool result has nothing for it.
pub const NO_CONTENT: &str = "[tool returned no content]";

/// What the model would read of a call whose server asked for input first: the host answers
/// the requests ([`AgentToolResult::pending`](crate::AgentToolResult::pending)) and calls again.
pub const INPUT_REQUIRED: &str = "[tool call waiting for input]";

/// `[tool call waiting for input]`, or `[tool call running as a task: <status>]` (the status
/// cleaned as a label is, cut at 40 characters).
pub(crate) fn pending(pending: &crate::wire::pending::Pending) -> String {
    match pending {
        crate::wire::pending::Pending::InputRequired(_) => INPUT_REQUIRED.to_owned(),
        crate::wire::pending::Pending::Task(task) => {
            let mut out = String::from("[tool call running as a task: ");
            if !push_label_to(&mut out, &task.status, 40) {
                out.push_str("status unknown");
            }
            out.push(']');
            out
        }
    }
}

/// What stands for `structuredContent` that cannot be read again as JSON.
pub(crate) const STRUCTURED_UNREADABLE: &str = "[structured content not shown: not JSON]";

/// The marker of inline data that claims a bulk disposition.
pub const WITHHELD: &str = "[inline content withheld: nonconformant bulk disposition on inline data]";

/// What opens the history string of a tool result with `isError: true`.
pub const TOOL_ERROR_LINE: &str = "[tool error]";

/// What stands for content whose every block was an empty text.
pub const EMPTY_TEXT: &str = "[empty text]";

/// How deep the script lane walks; anything deeper is replaced by [`TOO_DEEP`].
pub const SCRIPT_MAX_DEPTH: usize = crate::json::MAX_DEPTH;

/// What stands in for a value nested deeper than [`SCRIPT_MAX_DEPTH`].
pub const TOO_DEEP: &str = "[nesting too deep: content below depth 127 not shown]";

/// `[image: image/png, ~3KB]`, `[file: text/plain, ~2KB, not text: invalid UTF-8]`.
fn media_marker(out: &mut String, label: &str, mime: Option<&str>, size: Option<u64>, note: Option<&str>) {
    out.push('[');
    out.push_str(label);
    out.push_str(": ");
    if !push_mime(out, mime.unwrap_or("")) {
        out.push_str("unknown type");
    }
    if let Some(size) = size {
        out.push_str(", ");
        push_size(out, size);
    }
    if let Some(note) = note {
        out.push_str(", ");
        out.push_str(note);
    }
    out.push(']');
}

/// `[<label>: <mime>, <size>]`, with a note where there is one: how media reads where a
/// message or a provider takes text only.
pub(crate) fn media_text(label: &str, mime_type: &str, data: &str, note: Option<&str>) -> String {
    let mut out = String::with_capacity(64);
    media_marker(
        &mut out,
        label,
        Some(mime_type),
        Some(base64_decoded_len(data.as_bytes())),
        note,
    );
    out
}

/// The note of a placeholder in a text-only message whose media follows in the next message.
pub(crate) const FOLLOWS: &str = "sent in the next user message";

/// `[image: image/svg+xml, ~3KB, not sent: unsupported type]`, `[image: image/png, not sent:
/// invalid base64]`: media that failed a target's check.
pub(crate) fn not_sent(label: &str, mime: Option<&str>, size: u64, reason: NotSent) -> String {
    let mut out = String::with_capacity(96);
    let (size, note) = match reason {
        NotSent::UnsupportedType => (Some(size), Cow::Borrowed("not sent: unsupported type")),
        NotSent::Mismatch => (Some(size), Cow::Borrowed("not sent: data does not match type")),
        NotSent::InvalidBase64 => (None, Cow::Borrowed("not sent: invalid base64")),
        NotSent::TooLarge(limit) => (Some(size), Cow::Owned(format!("not sent: over {}", limit_label(limit)))),
    };
    media_marker(&mut out, label, mime, size, Some(&note));
    out
}

/// A limit as people write it: `5MB` for a whole number of MiB, else as a size.
fn limit_label(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{}MB", bytes / MIB)
    } else {
        format_size(bytes).trim_start_matches('~').to_owned()
    }
}

/// What introduces one tool call's media in the user message that carries it.
pub(crate) fn attachments_of(tool_use_id: &str) -> String {
    format!("[attachments of tool call {tool_use_id}]")
}

/// What tells an OpenAI model, which has no error flag, that a tool result is an error.
pub const TOOL_ERROR: &str = "[tool returned an error]";

/// `[ref_…] name — mime, size claimed — provenance`, then ` — fetch with <tool>` where the
/// registry names the host's fetch tool; once a fetch has verified the bytes,
/// `— observed mime, size verified —`.
fn stub(out: &mut String, stubs: &mut Stubs<'_>, reference: &Reference<'_>, provenance: Provenance) {
    out.push('[');
    let verified = stubs.push_id(reference, out);
    out.push(']');
    if let Some(name) = reference.name {
        out.push(' ');
        if !push_label(out, name, "") {
            out.pop();
        }
    }
    // What a fetch verified, once there is that; else what the server claimed.
    let (mime_type, size, said) = match &verified {
        Some(v) => (Some(v.mime_type.as_str()), Some(v.bytes), " verified"),
        None => (reference.mime_type, reference.size_bytes, " claimed"),
    };
    let before = out.len();
    out.push_str(" — ");
    // A claimed type that is no media type is still the server's testimony (RFC-005): shown
    // cleaned and cut as any label, where it shows no URL.
    let mime = mime_type.is_some_and(|mime| push_mime(out, mime) || crate::text::push_label(out, mime));
    if let Some(size) = size {
        if mime {
            out.push_str(", ");
        }
        push_size(out, size);
        out.push_str(said);
    } else if !mime {
        out.truncate(before);
    }
    out.push_str(" — ");
    out.push_str(provenance.as_str());
    if let Some(tool) = stubs.registry().fetch_tool() {
        out.push_str(" — fetch with ");
        out.push_str(tool);
    }
}

/// A server's label, or `absent` where nothing may be shown of it.
fn push_label(out: &mut String, raw: &str, absent: &str) -> bool {
    if crate::text::push_label(out, raw) {
        return true;
    }
    out.push_str(absent);
    false
}
