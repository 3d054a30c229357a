//! Opening a `file:` reference beneath the one directory the host named: no component of the
//! path may leave it, whatever is swapped while it is resolved; regular files only, on an
//! ordinary filesystem, with one link unless the host allows more.
//!
//! On Linux the kernel resolves the path (`openat2` with `RESOLVE_BENEATH`,
//! `RESOLVE_NO_SYMLINKS`, `RESOLVE_NO_MAGICLINKS`); where it has no `openat2` (before 5.6, or
//! a sandbox that filters it) and on other Unixes, each component is opened from the one
//! before it with `O_NOFOLLOW`. Either way no symlink is followed and no `..` is taken, so a
//! directory swapped for a symlink between the root and the file is refused, not followed.
//! What was opened is then checked by its descriptor: a regular file, and not on procfs,
//! sysfs or any other filesystem of the kernel's own (`fstatfs`).

use std::fs::File;
use std::path::{Component, Path, PathBuf};

use super::Refusal;

const OUTSIDE: Refusal = Refusal::File("the file is not under the directory the host allows");
const NOT_REGULAR: Refusal = Refusal::File("not a regular file");
const SYSTEM: Refusal = Refusal::File("a file of the system's own (procfs, sysfs, devtmpfs)");
const LINKED: Refusal = Refusal::File("a file with more than one link (a hard link)");
const UNREADABLE: Refusal = Refusal::Transport("the file could not be opened");

/// The file at `path`, opened for reading, and its size, where `path` names a regular file
/// beneath `root` through no symlink and no `..`, on no filesystem of the kernel's own, with
/// one link unless `hard_links` allows more.
pub(super) fn open_under(root: &Path, path: &Path, hard_links: bool) -> Result<(File, u64), Refusal> {
    if is_system_path(path) {
        return Err(SYSTEM);
    }
    let relative = beneath(root, path)?;
    let file = open_beneath(root, &relative)?;
    let meta = file.metadata().map_err(|_| UNREADABLE)?;
    if !meta.is_file() {
        return Err(NOT_REGULAR);
    }
    on_a_plain_filesystem(&file, &meta)?;
    if !hard_links && links(&meta) > 1 {
        return Err(LINKED);
    }
    Ok((file, meta.len()))
}

/// Where procfs, sysfs and devtmpfs are mounted.
const SYSTEM_MOUNTS: [&str; 3] = ["/proc", "/sys", "/dev"];

/// Paths under the mount points of procfs, sysfs and devtmpfs: refused by name before
/// anything is opened, as the filesystem check after opening would refuse them.
fn is_system_path(path: &Path) -> bool {
    SYSTEM_MOUNTS.iter().any(|p| path.starts_with(p))
}

/// `path` as normal components below `root`: taken by its words from `root` as the host
/// wrote it, or from `root` with its own symlinks resolved (the host's directory may be
/// named through one, `/tmp` on some systems). A `..` anywhere, or a path not below the
/// root, is outside.
fn beneath(root: &Path, path: &Path) -> Result<PathBuf, Refusal> {
    let below = path.strip_prefix(root).ok().map(Path::to_path_buf).or_else(|| {
        let real = root.canonicalize().ok()?;
        path.strip_prefix(real).ok().map(Path::to_path_buf)
    });
    let below = below.ok_or(OUTSIDE)?;
    let mut relative = PathBuf::new();
    for component in below.components() {
        match component {
            Component::Normal(name) => relative.push(name),
            Component::CurDir => {}
            _ => return Err(OUTSIDE),
        }
    }
    if relative.as_os_str().is_empty() {
        // The root itself: a directory.
        return Err(NOT_REGULAR);
    }
    Ok(relative)
}

#[cfg(unix)]
fn open_beneath(root: &Path, relative: &Path) -> Result<File, Refusal> {
    use rustix::fs::{Mode, OFlags};
    // The root is the host's own setting: opened as it names it, symlinks and all.
    let dir = rustix::fs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|_| OUTSIDE)?;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::ResolveFlags;
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(&dir, relative, LAST, Mode::empty(), resolve) {
            Ok(fd) => return Ok(File::from(fd)),
            // No openat2 here (an old kernel, or a sandbox's filter): the walk below.
            Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => {}
            Err(e) => return Err(refusal_of(e)),
        }
    }
    walk(dir, relative)
}

/// How the last component is opened: for reading, never following a symlink, never
/// blocking (a FIFO would wait for a writer).
#[cfg(unix)]
const LAST: rustix::fs::OFlags = rustix::fs::OFlags::RDONLY
    .union(rustix::fs::OFlags::NOFOLLOW)
    .union(rustix::fs::OFlags::NONBLOCK)
    .union(rustix::fs::OFlags::CLOEXEC)
    .union(rustix::fs::OFlags::NOCTTY);

/// Opens `relative` one component at a time, each from the directory before it, without
/// following a symlink at any step: what `openat2`'s `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`
/// does in the kernel. `relative` holds normal components only.
#[cfg(unix)]
fn walk(root: rustix::fd::OwnedFd, relative: &Path) -> Result<File, Refusal> {
    use rustix::fs::{Mode, OFlags};
    let mut dir = root;
    let mut components = relative.components().peekable();
    while let Some(component) = components.next() {
        let Component::Normal(name) = component else {
            return Err(OUTSIDE);
        };
        if components.peek().is_none() {
            return rustix::fs::openat(&dir, name, LAST, Mode::empty())
                .map(File::from)
                .map_err(refusal_of);
        }
        let step = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        dir = rustix::fs::openat(&dir, name, step, Mode::empty()).map_err(refusal_of)?;
    }
    Err(NOT_REGULAR)
}

/// A failed open, as the reader should hear of it: a symlink (`ELOOP`; `ENOTDIR` where a
/// directory was wanted and a symlink found) or an escape (`EXDEV`) is outside the directory;
/// anything else could not be opened.
#[cfg(unix)]
fn refusal_of(e: rustix::io::Errno) -> Refusal {
    use rustix::io::Errno;
    match e {
        Errno::LOOP | Errno::XDEV | Errno::NOTDIR => OUTSIDE,
        _ => UNREADABLE,
    }
}

#[cfg(not(unix))]
fn open_beneath(root: &Path, relative: &Path) -> Result<File, Refusal> {
    // No openat here: every symlink resolved, then the resolved path checked, then the
    // file refused unless it is still the regular file the path names.
    let root = root.canonicalize().map_err(|_| OUTSIDE)?;
    let real = root.join(relative).canonicalize().map_err(|_| UNREADABLE)?;
    if !real.starts_with(&root) {
        return Err(OUTSIDE);
    }
    if !std::fs::symlink_metadata(&real).map_err(|_| UNREADABLE)?.is_file() {
        return Err(NOT_REGULAR);
    }
    File::open(real).map_err(|_| UNREADABLE)
}

#[cfg(unix)]
fn links(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// The filesystems of the kernel's own, by the magic number `fstatfs` gives (linux/magic.h):
/// each shows the kernel's or a process's state as files, none holds a user's document.
/// devtmpfs is not here: it reports tmpfs's number, and holds no regular files.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) const PSEUDO_FILESYSTEMS: [(u32, &str); 20] = [
    (0x9fa0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x6462_6720, "debugfs"),
    (0x7472_6163, "tracefs"),
    (0x7363_6673, "securityfs"),
    (0x0027_e0eb, "cgroup"),
    (0x6367_7270, "cgroup2"),
    (0xcafe_4a11, "bpf"),
    (0x6165_676c, "pstore"),
    (0xde5e_81e4, "efivarfs"),
    (0x6265_6570, "configfs"),
    (0x6573_5543, "fusectl"),
    (0x4249_4e4d, "binfmt_misc"),
    (0x1980_0202, "mqueue"),
    (0x6e73_6673, "nsfs"),
    (0xf97c_ff8c, "selinuxfs"),
    (0x4341_5d53, "smackfs"),
    (0x1cd1, "devpts"),
    (0x6269_6e66, "binderfs"),
    (0x5a3c_69f0, "aafs (AppArmor)"),
];

/// The opened file lies on no filesystem of the kernel's own: by its filesystem's magic
/// number where the kernel tells it, and on no device that `/proc`, `/sys` or `/dev` is on
/// (their mounts may be directories of another filesystem).
#[cfg(unix)]
fn on_a_plain_filesystem(file: &File, opened: &std::fs::Metadata) -> Result<(), Refusal> {
    use std::os::unix::fs::MetadataExt as _;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let stat = rustix::fs::fstatfs(file).map_err(|_| UNREADABLE)?;
        // The word is signed on some targets; the magic numbers are 32 bits.
        let magic = u32::try_from(i128::from(stat.f_type) & 0xffff_ffff).unwrap_or(0);
        if PSEUDO_FILESYSTEMS.iter().any(|&(m, _)| m == magic) {
            return Err(SYSTEM);
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = file;
    for system in SYSTEM_MOUNTS.iter().chain(&["/proc/self", "/sys/kernel"]) {
        if std::fs::metadata(system).is_ok_and(|m| m.dev() == opened.dev()) {
            return Err(SYSTEM);
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn on_a_plain_filesystem(_: &File, _: &std::fs::Metadata) -> Result<(), Refusal> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mav-files-unit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The filesystem check alone: a file on procfs is refused by its descriptor, whatever
    /// path reached it; a file on the temporary directory's filesystem is not.
    #[test]
    fn the_opened_file_must_be_on_a_plain_filesystem() {
        let dir = scratch("fs");
        std::fs::write(dir.join("a"), "a").unwrap();
        let check = |p: &Path| {
            let file = File::open(p).unwrap();
            let meta = file.metadata().unwrap();
            on_a_plain_filesystem(&file, &meta)
        };
        assert_eq!(check(&dir.join("a")), Ok(()));
        let status = Path::new("/proc/self/status");
        if status.exists() {
            assert_eq!(check(status), Err(SYSTEM));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The walk used where the kernel has no `openat2`, alone: it opens a file through
    /// directories, and refuses a symlink at any component, a `..`, and a directory.
    #[test]
    fn the_walk_follows_no_symlink_at_any_component() {
        let dir = scratch("walk");
        std::fs::create_dir_all(dir.join("root/a/b")).unwrap();
        std::fs::create_dir_all(dir.join("elsewhere/b")).unwrap();
        std::fs::write(dir.join("root/a/b/f"), "in").unwrap();
        std::fs::write(dir.join("elsewhere/b/f"), "out").unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("root/swapped")).unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere/b/f"), dir.join("root/a/last")).unwrap();
        let root = || {
            rustix::fs::open(
                dir.join("root"),
                rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
                rustix::fs::Mode::empty(),
            )
            .unwrap()
        };
        let read = |f: Result<File, Refusal>| {
            f.map(|mut f| {
                let mut s = String::new();
                std::io::Read::read_to_string(&mut f, &mut s).unwrap();
                s
            })
        };
        assert_eq!(read(walk(root(), Path::new("a/b/f"))), Ok("in".to_owned()));
        assert_eq!(read(walk(root(), Path::new("swapped/b/f"))), Err(OUTSIDE));
        assert_eq!(read(walk(root(), Path::new("a/last"))), Err(OUTSIDE));
        assert_eq!(read(walk(root(), Path::new("a/../../elsewhere/b/f"))), Err(OUTSIDE));
        assert_eq!(read(walk(root(), Path::new("a/missing"))), Err(UNREADABLE));
        assert!(walk(root(), Path::new("a/b")).unwrap().metadata().unwrap().is_dir());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The path's words below the root: normal components only.
    #[test]
    fn a_path_is_taken_below_the_root_by_its_words() {
        let root = Path::new("/srv/shared");
        assert_eq!(
            beneath(root, Path::new("/srv/shared/a/b.txt")),
            Ok(PathBuf::from("a/b.txt"))
        );
        assert_eq!(beneath(root, Path::new("/srv/shared/./a")), Ok(PathBuf::from("a")));
        assert_eq!(beneath(root, Path::new("/srv/shared/a/../../x")), Err(OUTSIDE));
        assert_eq!(beneath(root, Path::new("/srv/other/x")), Err(OUTSIDE));
        assert_eq!(beneath(root, Path::new("/srv/sharedx")), Err(OUTSIDE));
        assert_eq!(beneath(root, Path::new("/srv/shared")), Err(NOT_REGULAR));
    }
}
