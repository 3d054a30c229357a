//! Opening a `file:` reference under the one directory the host named: every symlink resolved
//! before the check, regular files only, never a file of the kernel's own filesystems.

use std::fs::File;
use std::path::Path;

use super::Refusal;

const OUTSIDE: Refusal = Refusal::File("the file is not under the directory the host allows");
const NOT_REGULAR: Refusal = Refusal::File("not a regular file");
const SYSTEM: Refusal = Refusal::File("a file of the system's own (procfs, sysfs, devtmpfs)");
const UNREADABLE: Refusal = Refusal::Transport("the file could not be opened");

/// The file at `path`, opened for reading, and its size, where `path` with every symlink
/// resolved lies under `root` (resolved too), is a regular file, and is on no filesystem of the
/// kernel's own. The file opened is the one that was checked: opened without following a
/// last symlink and without blocking (a FIFO would wait for a writer), then compared by
/// device and inode with the resolved path.
pub(super) fn open_under(root: &Path, path: &Path) -> Result<(File, u64), Refusal> {
    let root = root.canonicalize().map_err(|_| OUTSIDE)?;
    let real = path.canonicalize().map_err(|_| UNREADABLE)?;
    if !real.starts_with(&root) {
        return Err(OUTSIDE);
    }
    if is_system_path(&real) {
        return Err(SYSTEM);
    }
    let file = open_nofollow(&real)?;
    let meta = file.metadata().map_err(|_| UNREADABLE)?;
    if !meta.is_file() {
        return Err(NOT_REGULAR);
    }
    same_file_on_a_plain_filesystem(&real, &meta)?;
    Ok((file, meta.len()))
}

/// Where procfs, sysfs and devtmpfs are mounted.
const SYSTEM_MOUNTS: [&str; 3] = ["/proc", "/sys", "/dev"];

/// Paths under the mount points of procfs, sysfs and devtmpfs.
fn is_system_path(real: &Path) -> bool {
    SYSTEM_MOUNTS.iter().any(|p| real.starts_with(p))
}

#[cfg(unix)]
fn open_nofollow(real: &Path) -> Result<File, Refusal> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(real)
        .map_err(|_| UNREADABLE)
}

#[cfg(not(unix))]
fn open_nofollow(real: &Path) -> Result<File, Refusal> {
    // No FIFO can be opened by a path here that would block; the checks after opening hold.
    if !std::fs::symlink_metadata(real).map_err(|_| UNREADABLE)?.is_file() {
        return Err(NOT_REGULAR);
    }
    File::open(real).map_err(|_| UNREADABLE)
}

/// The opened file is the resolved path's (nothing was swapped in between), and lies on no
/// device that `/proc`, `/sys` or `/dev` is on (procfs, sysfs and devtmpfs are mounted
/// elsewhere too).
#[cfg(unix)]
fn same_file_on_a_plain_filesystem(real: &Path, opened: &std::fs::Metadata) -> Result<(), Refusal> {
    use std::os::unix::fs::MetadataExt as _;
    let now = std::fs::symlink_metadata(real).map_err(|_| UNREADABLE)?;
    if (now.dev(), now.ino()) != (opened.dev(), opened.ino()) {
        return Err(OUTSIDE);
    }
    // Beside the mount points, two paths inside procfs and sysfs, in case a mount point is
    // itself only a directory of another filesystem.
    for system in SYSTEM_MOUNTS.iter().chain(&["/proc/self", "/sys/kernel"]) {
        if std::fs::metadata(system).is_ok_and(|m| m.dev() == opened.dev()) {
            return Err(SYSTEM);
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn same_file_on_a_plain_filesystem(_: &Path, _: &std::fs::Metadata) -> Result<(), Refusal> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The second line of defence, alone: a file other than the one the path names, and a file
    /// on the kernel's own filesystems, are refused even where the path passed every check.
    #[test]
    fn the_opened_file_must_be_the_paths_and_on_a_plain_filesystem() {
        let dir = std::env::temp_dir().join(format!("mav-files-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, "a").unwrap();
        std::fs::write(&b, "b").unwrap();
        let meta = |p: &Path| File::open(p).unwrap().metadata().unwrap();
        assert_eq!(same_file_on_a_plain_filesystem(&a, &meta(&a)), Ok(()));
        assert_eq!(same_file_on_a_plain_filesystem(&a, &meta(&b)), Err(OUTSIDE));
        let status = Path::new("/proc/self/status");
        if status.exists() {
            assert_eq!(same_file_on_a_plain_filesystem(status, &meta(status)), Err(SYSTEM));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
