//! What a tool result shows beside its blocks: decided here, beside what each block is, and
//! shown by every lane alike.

use crate::error::Error;
use crate::json::{Peek, Reader};
use crate::wire::key_name;

/// What a tool result shows beside its blocks ([`beside_blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Beside<'s> {
    /// Its `structuredContent`, as JSON text: shown as the script lane shows any JSON.
    Structured(&'s str),
    /// Nothing at all: `[tool returned no content]`.
    NoContent,
    /// Only blocks held back for the user: `[output displayed to user]`.
    DisplayedToUser,
}

/// Whether a result's `structuredContent` only repeats its content, as the official
/// filesystem server's `read_media_file` sends it (`{"content": [the same blocks]}`): an
/// object whose one key is `content`, an array of as many content blocks (objects with one
/// string `type`, a block type) as the result has. Such structured content is not shown again.
///
/// Read as `serde_json` reads it (a key given twice is no such object), without building a
/// tree: anything else ends the reading at once.
pub(crate) fn repeats_content(structured: &str, blocks: usize) -> bool {
    only_content(&mut Reader::new(structured.as_bytes())).is_ok_and(|items| items == Some(blocks))
}

/// How many blocks the value at `r` holds, where it is an object of one `content` key.
fn only_content(r: &mut Reader<'_>) -> Result<Option<usize>, Error> {
    if r.peek()? != Peek::Object {
        return Ok(None);
    }
    let mut count = None;
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        if &*key_name(&key) != b"content" || count.is_some() || r.peek()? != Peek::Array {
            return Ok(None);
        }
        let mut items = r.array()?;
        let mut n = 0;
        while r.next_element(&mut items)? {
            if !is_typed_block(r)? {
                return Ok(None);
            }
            n += 1;
        }
        count = Some(n);
    }
    Ok(count)
}

/// Whether the value at `r` is an object with one `type`, a string naming a block type.
fn is_typed_block(r: &mut Reader<'_>) -> Result<bool, Error> {
    if r.peek()? != Peek::Object {
        return Ok(false);
    }
    let mut type_name = None;
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        if &*key_name(&key) != b"type" {
            r.skip()?;
        } else if type_name.is_some() || r.peek()? != Peek::String {
            return Ok(false);
        } else {
            type_name = Some(r.string()?.text());
        }
    }
    Ok(type_name.is_some_and(|t| crate::classify::is_block_type(&t)))
}

/// What the model reads of a tool result beside its blocks, on every lane: the
/// `structuredContent` where no text block is left for the model (and it does not just repeat
/// the content), else the marker of a result left with nothing; `None` where its blocks say
/// enough. `shown`: the blocks for the model; `held`: those held back for the user.
pub(crate) fn beside_blocks(structured: Option<&str>, shown: usize, has_text: bool, held: usize) -> Option<Beside<'_>> {
    if let (false, Some(structured)) = (has_text, structured) {
        if !repeats_content(structured, shown + held) {
            return Some(Beside::Structured(structured));
        }
    }
    (shown == 0).then_some(if held == 0 {
        Beside::NoContent
    } else {
        Beside::DisplayedToUser
    })
}

#[cfg(test)]
mod tests {
    use super::repeats_content;

    #[test]
    fn structured_content_repeats_the_content_only_as_an_object_of_one_content_key() {
        let two = r#"{"content": [{"type": "image", "data": "AA=="}, {"text": "t", "type": "text"}]}"#;
        assert!(repeats_content(two, 2));
        assert!(!repeats_content(two, 1));
        assert!(repeats_content(r#"{"\u0063ontent": [{"type": "resource_link"}]}"#, 1));
        assert!(repeats_content(r#"{"content": []}"#, 0));
        for other in [
            // Another key, the key twice, or no object.
            r#"{"content": [{"type": "text"}], "rows": 1}"#,
            r#"{"content": [{"type": "text"}], "content": [{"type": "text"}]}"#,
            r#"[[{"type": "text"}]]"#,
            "{}",
            // An item that is no block: no type, a type twice, not a string, not a block type.
            r#"{"content": [{"text": "t"}]}"#,
            r#"{"content": [{"type": "text", "type": "text"}]}"#,
            r#"{"content": [{"type": 1}]}"#,
            r#"{"content": [{"type": "row"}]}"#,
            r#"{"content": ["text"]}"#,
            r#"{"content": {"type": "text"}}"#,
        ] {
            assert!(!repeats_content(other, 1), "{other}");
        }
    }
}
