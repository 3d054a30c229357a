//! What a model API accepts: the media policy every lane checks against. A [`Target`] names
//! the provider and the media it takes (types, sizes, PDFs); `check` holds a block's media to
//! it (the bytes' own type, the base64, the limits). Below every lane; the serializers that
//! write each provider's shape stand on the top floor, in `provider`.

pub(crate) mod check;
pub(crate) mod target;

pub use self::target::{AudioFormat, ImageDetail, ImageFormat, Provider, Target};
