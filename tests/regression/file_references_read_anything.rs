//! Issue 29: with `--allow-scheme file`, a reference to `file:///proc/self/environ` was fetched
//! as text, the bearer credential inside it; symlinks, `/etc`, `/proc` and `/dev` were all
//! read, and a FIFO hung the fetch forever.

use mcp_agent_view::fetch::{FetchPolicy, Fetcher, Refusal};
use mcp_agent_view::{classify_block, Block, Class, ReferenceRegistry};
use serde_json::json;

fn fetch(policy: FetchPolicy, uri: &str) -> Result<Vec<u8>, Refusal> {
    let registry = ReferenceRegistry::new();
    let block = json!({"type": "resource", "uri": uri, "name": "n"});
    let block = Block::decode(&block);
    let Class::Reference(reference) = classify_block(&block) else {
        panic!("a reference")
    };
    let id = registry.register(&reference);
    Fetcher::new(policy).fetch(&registry, &id).map(|f| f.bytes)
}

#[test]
fn no_file_is_read_but_a_regular_one_under_the_named_directory() {
    // Without a directory named, file: is refused, and naming the scheme is an error.
    assert!(matches!(
        fetch(FetchPolicy::new(), "file:///proc/self/environ"),
        Err(Refusal::Scheme { .. })
    ));
    assert!(FetchPolicy::new().allow_scheme("file").is_err());
    // Under `/` the kernel's own files are still refused, and so are devices.
    for uri in [
        "file:///proc/self/environ",
        "file:///dev/zero",
        "file:///sys/kernel/mm/transparent_hugepage/enabled",
    ] {
        let path = uri.trim_start_matches("file://");
        if std::path::Path::new(path).exists() {
            let refusal = fetch(FetchPolicy::new().allow_files_under("/"), uri).unwrap_err();
            assert!(matches!(refusal, Refusal::File(_)), "{uri}: {refusal}");
        }
    }
    let dir = std::env::temp_dir().join(format!("mav-regress-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd")).unwrap();
        assert!(std::process::Command::new("mkfifo")
            .arg(dir.join("fifo"))
            .status()
            .unwrap()
            .success());
        let started = std::time::Instant::now();
        let policy = || FetchPolicy::new().allow_files_under(&dir);
        for name in ["passwd", "fifo"] {
            let uri = url::Url::from_file_path(dir.join(name)).unwrap().to_string();
            assert!(matches!(fetch(policy(), &uri), Err(Refusal::File(_))), "{name}");
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "a FIFO never hangs the fetch"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
