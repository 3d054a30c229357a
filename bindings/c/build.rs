//! Tells the C tests which target the library was built for, so that `cc` picks the same
//! compiler and flags.
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=MAV_TARGET={target}");
}
