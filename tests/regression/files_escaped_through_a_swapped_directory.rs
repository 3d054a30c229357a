//! Issue 48: `--allow-files-under` was beaten by swapping a directory *between* the root and
//! the file for a symlink out of the tree (188 of 27,300 fetches in 10 s read the outside
//! file); a procfs mounted inside the allowed tree (a container's `/host/proc`) was read; a
//! hard link inside the tree to a file outside it was read as any other.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_agent_view::fetch::{FetchPolicy, Fetcher, Refusal};
use mcp_agent_view::{classify_block, Block, Class, ReferenceRegistry};
use serde_json::json;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mav-regress-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fetch(policy: &FetchPolicy, path: &Path) -> Result<Vec<u8>, Refusal> {
    let registry = ReferenceRegistry::new();
    let uri = url::Url::from_file_path(path).unwrap().to_string();
    let block = Block::decode(&json!({"type": "resource_link", "uri": uri, "name": "n"}));
    let Class::Reference(reference) = classify_block(&block) else {
        panic!("a reference")
    };
    let id = registry.register(&reference);
    Fetcher::new(policy.clone()).fetch(&registry, &id).map(|f| f.bytes)
}

/// A thread swaps `shared/mid` between a directory inside the tree and a symlink to one
/// outside it, as fast as it can, while this one fetches `shared/mid/deep/f.txt`: for two
/// seconds, no fetch reads the outside file.
#[test]
fn a_directory_swapped_for_a_symlink_mid_path_is_never_followed() {
    let dir = scratch("swap");
    let shared = dir.join("shared");
    for d in [shared.join("inside/deep"), dir.join("outside/deep")] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(shared.join("inside/deep/f.txt"), "inside").unwrap();
    std::fs::write(dir.join("outside/deep/f.txt"), "SECRET").unwrap();
    std::os::unix::fs::symlink(dir.join("outside"), shared.join("link")).unwrap();
    let mid = shared.join("mid");
    std::fs::rename(shared.join("inside"), &mid).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, shared, mid) = (Arc::clone(&stop), shared.clone(), mid.clone());
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // `mid` is the real directory, then the symlink out, then the directory again.
                std::fs::rename(&mid, shared.join("inside")).unwrap();
                std::fs::rename(shared.join("link"), &mid).unwrap();
                std::fs::rename(&mid, shared.join("link")).unwrap();
                std::fs::rename(shared.join("inside"), &mid).unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let policy = FetchPolicy::new().allow_files_under(&shared);
    let (mut read, mut refused) = (0u32, 0u32);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(2) {
        match fetch(&policy, &mid.join("deep/f.txt")) {
            Ok(bytes) => {
                assert_eq!(bytes, b"inside", "a fetch read the file outside the tree");
                read += 1;
            }
            Err(_) => refused += 1,
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(
        swaps > 100 && read > 0 && refused > 0,
        "{swaps} swaps, {read} read, {refused} refused"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A symlink anywhere below the root is refused, pointing in or out; the same path through
/// real directories is read.
#[test]
fn no_symlink_below_the_root_is_followed() {
    let dir = scratch("links");
    let shared = dir.join("shared");
    std::fs::create_dir_all(shared.join("real")).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(shared.join("real/f.txt"), "in").unwrap();
    std::fs::write(dir.join("out/f.txt"), "SECRET").unwrap();
    std::os::unix::fs::symlink(dir.join("out"), shared.join("away")).unwrap();
    std::os::unix::fs::symlink(shared.join("real"), shared.join("here")).unwrap();
    let policy = FetchPolicy::new().allow_files_under(&shared);
    assert_eq!(fetch(&policy, &shared.join("real/f.txt")).unwrap(), b"in");
    let outside = Refusal::File("the file is not under the directory the host allows");
    assert_eq!(fetch(&policy, &shared.join("away/f.txt")), Err(outside.clone()));
    assert_eq!(fetch(&policy, &shared.join("here/f.txt")), Err(outside));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hard link inside the tree to a file outside it is refused unless the host allows links.
#[test]
fn a_hard_link_is_refused_unless_the_host_allows_it() {
    let dir = scratch("hardlink");
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(dir.join("secret.txt"), "SECRET").unwrap();
    std::fs::hard_link(dir.join("secret.txt"), shared.join("notes.txt")).unwrap();
    let policy = FetchPolicy::new().allow_files_under(&shared);
    assert_eq!(
        fetch(&policy, &shared.join("notes.txt")),
        Err(Refusal::File("a file with more than one link (a hard link)"))
    );
    assert_eq!(
        fetch(&policy.allow_hard_links(true), &shared.join("notes.txt")).unwrap(),
        b"SECRET"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A procfs mounted inside the tree (as a container's `/host/proc`) is refused by the
/// filesystem it is, not by its path. Mounting needs root, as CI has; elsewhere the test says
/// so and checks the path the system's own procfs is at instead.
#[test]
fn a_procfs_mounted_inside_the_tree_is_refused() {
    let dir = scratch("procfs");
    let shared = dir.join("shared");
    let proc = shared.join("host/proc");
    std::fs::create_dir_all(&proc).unwrap();
    let system = Refusal::File("a file of the system's own (procfs, sysfs, devtmpfs)");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "proc", "proc"])
        .arg(&proc)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if mounted {
        let policy = FetchPolicy::new().allow_files_under(&shared);
        let result = fetch(&policy, &proc.join("self/environ"));
        let status = fetch(&policy, &proc.join("1/status"));
        let _ = std::process::Command::new("umount").arg(&proc).status();
        // `self` is a symlink: refused as one; a numbered process's file by its filesystem.
        assert!(matches!(result, Err(Refusal::File(_))), "{result:?}");
        assert_eq!(status, Err(system));
    } else {
        eprintln!("no mount here (not root): checking the system procfs at its own path instead");
        let policy = FetchPolicy::new().allow_files_under("/");
        assert_eq!(fetch(&policy, Path::new("/proc/1/status")), Err(system));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
