//! What a lane reads: JSON as it arrived (bytes or text), a `serde_json::Value`, or what this
//! crate decoded already (a [`Message`], a [`Block`], blocks). One entry point a lane
//! ([`history`](crate::history), [`convert`](crate::convert), [`script`](crate::script)) takes
//! any of them.

use serde_json::Value;

use crate::wire::{Block, Message};

/// What a lane can read. Implemented for JSON (`&[u8]`, `&[u8; N]`, `&Vec<u8>`, `&str`,
/// `&String`, `&serde_json::Value`) and for what this crate decoded (`&Message`, `&Block`, `&[Block]`,
/// `&Vec<Block>`). Sealed: the lanes know each.
///
/// JSON bytes are read in one pass, each block shown as it is read, strings borrowed: the
/// fast path for a host that holds the bytes. A `Value` is written out and read the same way.
pub trait Input<'a>: sealed::Sealed {
    #[doc(hidden)]
    fn source(self) -> Source<'a>;
}

/// JSON, for the lane that reads any JSON, [`script`](crate::script): `&[u8]`, `&[u8; N]`,
/// `&Vec<u8>`, `&str`, `&String`, `&serde_json::Value`. Sealed.
pub trait Json<'a>: Input<'a> {
    #[doc(hidden)]
    fn json(self) -> JsonSource<'a>;
}

/// What an [`Input`] is, for the lanes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// JSON.
    Json(JsonSource<'a>),
    /// A decoded message.
    Message(&'a Message<'a>),
    /// Decoded blocks.
    Blocks(&'a [Block<'a>]),
}

/// What a [`Json`] is, for the lanes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum JsonSource<'a> {
    /// JSON bytes.
    Bytes(&'a [u8]),
    /// A `Value`.
    Value(&'a Value),
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! json {
    ($($t:ty => |$x:ident| $json:expr;)+) => {
        $(
            impl<'a> sealed::Sealed for $t {}
            impl<'a> Input<'a> for $t {
                fn source(self) -> Source<'a> {
                    Source::Json(self.json())
                }
            }
            impl<'a> Json<'a> for $t {
                fn json(self) -> JsonSource<'a> {
                    let $x = self;
                    $json
                }
            }
        )+
    };
}

macro_rules! decoded {
    ($($t:ty => |$x:ident| $source:expr;)+) => {
        $(
            impl<'a> sealed::Sealed for $t {}
            impl<'a> Input<'a> for $t {
                fn source(self) -> Source<'a> {
                    let $x = self;
                    $source
                }
            }
        )+
    };
}

json! {
    &'a [u8] => |x| JsonSource::Bytes(x);
    &'a Vec<u8> => |x| JsonSource::Bytes(x);
    &'a str => |x| JsonSource::Bytes(x.as_bytes());
    &'a String => |x| JsonSource::Bytes(x.as_bytes());
    &'a Value => |x| JsonSource::Value(x);
}

decoded! {
    &'a Message<'_> => |x| Source::Message(x);
    &'a Block<'_> => |x| Source::Blocks(std::slice::from_ref(x));
    &'a [Block<'_>] => |x| Source::Blocks(x);
    &'a Vec<Block<'_>> => |x| Source::Blocks(x);
}

impl<const N: usize> sealed::Sealed for &[u8; N] {}
impl<'a, const N: usize> Input<'a> for &'a [u8; N] {
    fn source(self) -> Source<'a> {
        Source::Json(self.json())
    }
}
impl<'a, const N: usize> Json<'a> for &'a [u8; N] {
    fn json(self) -> JsonSource<'a> {
        JsonSource::Bytes(self)
    }
}
