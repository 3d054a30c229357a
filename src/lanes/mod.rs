//! The lanes: how each class is shown, one file per lane. Each is a thin function of
//! [`classify_block`](crate::classify_block) and a [`Provenance`](crate::Provenance).

pub(crate) mod agent;
pub(crate) mod convert;
pub(crate) mod history;
pub(crate) mod script;
