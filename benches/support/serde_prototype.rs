//! The decoder prototype of issue 14: a message's blocks decoded by `serde_json` itself, into
//! borrowed, derived structs (strings borrowed where they have no escape, base64 through
//! `deserialize_bytes`, `_meta` as a `RawValue`), as the crate's own reader would have to
//! decode them. The throughput example times it beside `Message::parse` on every corpus and
//! layout, so that the choice of decoder rests on figures. It reads tool results and
//! prompts; it does not classify, render or keep a block's raw text.
#![allow(dead_code)]

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// A string, borrowed where it has no escape.
#[derive(Deserialize)]
#[serde(transparent)]
pub struct Text<'a>(#[serde(borrow)] pub Cow<'a, str>);

/// Base64, borrowed where it has no escape, never checked as text.
pub struct B64<'a>(pub Cow<'a, [u8]>);

impl<'de: 'a, 'a> Deserialize<'de> for B64<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = B64<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("base64")
            }
            fn visit_borrowed_bytes<E>(self, v: &'de [u8]) -> Result<B64<'de>, E> {
                Ok(B64(Cow::Borrowed(v)))
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<B64<'de>, E> {
                Ok(B64(Cow::Borrowed(v.as_bytes())))
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<B64<'de>, E> {
                Ok(B64(Cow::Owned(v.to_vec())))
            }
            fn visit_str<E>(self, v: &str) -> Result<B64<'de>, E> {
                Ok(B64(Cow::Owned(v.as_bytes().to_vec())))
            }
        }
        deserializer.deserialize_bytes(V)
    }
}

/// Every field a block may have, each optional, of any JSON type where the crate tolerates one.
#[derive(Deserialize)]
pub struct Block<'a> {
    #[serde(rename = "type", borrow)]
    pub type_name: Option<Text<'a>>,
    #[serde(borrow)]
    pub text: Option<Text<'a>>,
    #[serde(borrow)]
    pub data: Option<B64<'a>>,
    #[serde(rename = "mimeType", borrow)]
    pub mime_type: Option<Text<'a>>,
    #[serde(borrow)]
    pub resource: Option<Resource<'a>>,
    #[serde(borrow)]
    pub uri: Option<Text<'a>>,
    #[serde(borrow)]
    pub name: Option<Text<'a>>,
    pub size: Option<f64>,
    #[serde(rename = "sizeBytes")]
    pub size_bytes: Option<f64>,
    #[serde(borrow)]
    pub annotations: Option<Annotations<'a>>,
    #[serde(rename = "_meta", borrow)]
    pub meta: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub struct Resource<'a> {
    #[serde(borrow)]
    pub uri: Option<Text<'a>>,
    #[serde(rename = "mimeType", borrow)]
    pub mime_type: Option<Text<'a>>,
    #[serde(borrow)]
    pub text: Option<Text<'a>>,
    #[serde(borrow)]
    pub blob: Option<B64<'a>>,
}

#[derive(Deserialize)]
pub struct Annotations<'a> {
    #[serde(borrow)]
    pub audience: Option<Vec<Text<'a>>>,
    pub priority: Option<f64>,
}

#[derive(Deserialize)]
pub struct PromptMessage<'a> {
    #[serde(borrow)]
    pub role: Option<Text<'a>>,
    #[serde(borrow)]
    pub content: Vec<Block<'a>>,
}

/// A tool result or a prompt.
#[derive(Deserialize)]
pub struct Message<'a> {
    #[serde(borrow, default)]
    pub content: Vec<Block<'a>>,
    #[serde(borrow, default)]
    pub messages: Vec<PromptMessage<'a>>,
    #[serde(rename = "structuredContent", borrow)]
    pub structured_content: Option<&'a RawValue>,
    #[serde(rename = "isError")]
    pub is_error: Option<bool>,
}

/// Decodes one document; how many blocks it had.
pub fn decode(doc: &[u8]) -> usize {
    serde_json::from_slice::<Message<'_>>(doc).map_or(0, |m| m.content.len() + m.messages.len())
}
