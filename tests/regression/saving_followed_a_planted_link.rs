//! Issue 29: the partial file of a save was `.<ref id>.<ext>.<pid>.partial`, opened with
//! `File::create`: a local writer of the save directory who planted a symlink at that
//! predictable name had any file the host can write overwritten with server bytes.

#[cfg(unix)]
#[test]
fn a_link_at_the_old_partial_name_is_never_written_through() {
    use mcp_agent_view::fetch::{FetchPolicy, Fetcher};
    use mcp_agent_view::{classify_block, Block, Class, ReferenceRegistry};
    let dir = std::env::temp_dir().join(format!("mav-regress-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("saved")).unwrap();
    std::fs::write(dir.join("victim"), "keep").unwrap();
    let registry = ReferenceRegistry::new();
    let block = serde_json::json!({"type": "resource", "uri": "data:text/plain,server%20bytes", "name": "n"});
    let block = Block::decode(&block);
    let Class::Reference(reference) = classify_block(&block) else {
        panic!("a reference")
    };
    let id = registry.register(&reference);
    let planted = dir
        .join("saved")
        .join(format!(".{id}.txt.{}.partial", std::process::id()));
    std::os::unix::fs::symlink(dir.join("victim"), &planted).unwrap();
    let fetcher = Fetcher::new(FetchPolicy::new().allow_scheme("data").unwrap()).save_dir(dir.join("saved"));
    fetcher.fetch(&registry, &id).unwrap();
    assert_eq!(std::fs::read_to_string(dir.join("victim")).unwrap(), "keep");
    assert_eq!(
        std::fs::read_to_string(dir.join("saved").join(format!("{id}.txt"))).unwrap(),
        "server bytes"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
