//! The providers' JSON, written as it is serialized: no `serde_json::Value` is built for a
//! block, a result or a message, so that memory stays with the input however many blocks it
//! holds. Objects write their keys sorted, as a `serde_json::Value` writes them.

use std::fmt::Display;

use serde::ser::Serializer;
use serde::Serialize;

/// A JSON object: `object!(serializer, "key" => value, …)`, keys written in the order given
/// (sorted, by the caller).
macro_rules! object {
    ($serializer:expr, $($key:literal => $value:expr),+ $(,)?) => {{
        use serde::ser::SerializeMap as _;
        let mut map = $serializer.serialize_map(None)?;
        $(map.serialize_entry($key, &$value)?;)+
        map.end()
    }};
}
pub(super) use object;

/// A JSON array written from an iterator made anew for each serialization.
pub(super) struct Items<F>(pub(super) F);

impl<F, I> Serialize for Items<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// `data:<mime>;base64,<data>`, written as it goes, never held whole.
pub(super) struct DataUrl<'a>(pub(super) &'a str, pub(super) &'a str);

impl Display for DataUrl<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "data:{};base64,{}", self.0, self.1)
    }
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
