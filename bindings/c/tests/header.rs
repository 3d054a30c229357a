//! The committed header is what cbindgen makes of the source: `MAV_BLESS=1` writes it anew.

use std::path::Path;

#[test]
fn the_committed_header_is_the_generated_one() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads src/")
        .write(&mut generated);
    let path = crate_dir.join("include/mcp_agent_view.h");
    if std::env::var_os("MAV_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the header");
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/mcp_agent_view.h differs from cbindgen's output; run MAV_BLESS=1 cargo test -p mcp-agent-view-c --test header"
    );
}
