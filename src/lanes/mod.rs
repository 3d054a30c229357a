//! The lanes: how each class is shown, one file per lane. Each is a thin function of
//! [`classify_block`](crate::classify_block) and a [`Provenance`].

pub(crate) mod agent;
pub(crate) mod convert;
pub(crate) mod history;
pub(crate) mod prompt;
pub(crate) mod sampling;
pub(crate) mod script;
pub(crate) mod tool_result;

use crate::classify::Beside;
use crate::reference::Stubs;
use crate::render::{Provenance, DISPLAYED_TO_USER, NO_CONTENT};

/// What a tool result shows beside its blocks, as text: its `structuredContent` as the script
/// lane shows JSON (every block in it a text of what the history lane shows), else a marker.
/// The stubs in it join `stubs`, at their places in the text.
pub(crate) fn beside_text(beside: Beside<'_>, stubs: &mut Stubs<'_>) -> String {
    match beside {
        Beside::Structured(json) => script::structured_text(json, stubs, Provenance::ToolResult),
        Beside::NoContent => NO_CONTENT.to_owned(),
        Beside::DisplayedToUser => DISPLAYED_TO_USER.to_owned(),
    }
}
