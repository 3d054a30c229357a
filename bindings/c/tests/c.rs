//! The C tests: `tests/c/test_abi.c`, compiled with the compiler `cc` picks for this target and
//! linked against the static library (and once against the shared one), run as it is, under valgrind's leak checker, over every
//! vector and the fuzz seed corpus (no call may end in a panic), and against the pinned
//! everything server (`npm ci --prefix live`). valgrind and the server are required: a missing
//! one fails the test, saying how to get it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The static library, built once (as the Go package links it), and the shared one beside it.
fn libraries() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let cargo = option_env!("CARGO").unwrap_or("cargo");
        let built = Command::new(cargo)
            .args(["build", "-q", "-p", "mcp-agent-view-c", "--lib"])
            .current_dir(root())
            .status()
            .expect("cargo runs");
        assert!(built.success(), "cargo build -p mcp-agent-view-c");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../debug");
        assert!(
            dir.join("libmcp_agent_view_c.a").exists(),
            "no static library in {}",
            dir.display()
        );
        dir
    })
}

/// `tests/c/test_abi.c` compiled into `name`, linked with `link` (the libraries' paths).
fn compiled(name: &str, link: &[&std::ffi::OsStr]) -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let target = env!("MAV_TARGET");
    let compiler = cc::Build::new()
        .target(target)
        .host(target)
        .opt_level(0)
        .debug(true)
        .cargo_metadata(false)
        .out_dir(tmp)
        .get_compiler();
    let exe = tmp.join(name);
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/test_abi.c");
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let status = compiler
        .to_command()
        .args([
            "-std=c11",
            "-D_DEFAULT_SOURCE",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pthread",
        ])
        .arg("-I")
        .arg(&include)
        .arg(&source)
        .args(link)
        .args(["-lpthread", "-ldl", "-lm", "-lrt", "-lutil", "-lgcc_s", "-lc"])
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "compiling tests/c/test_abi.c");
    exe
}

/// The test program, linked against the static library, built once.
fn program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let staticlib = libraries().join("libmcp_agent_view_c.a");
        compiled("test_abi", &[staticlib.as_os_str()])
    })
}

#[track_caller]
fn passes(output: &Output) {
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every JSON vector, and the fuzz seed corpus (every message inside the vectors, one a file),
/// which `fuzz/seed-corpus.mjs` writes (Node).
fn corpus() -> Vec<PathBuf> {
    static SEEDED: OnceLock<()> = OnceLock::new();
    SEEDED.get_or_init(|| {
        let seeded = Command::new("node")
            .arg(root().join("fuzz/seed-corpus.mjs"))
            .status()
            .expect("node runs fuzz/seed-corpus.mjs");
        assert!(seeded.success(), "node fuzz/seed-corpus.mjs");
    });
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    files(&root().join("tests/vectors"), &mut out);
    files(&root().join("fuzz/corpus"), &mut out);
    out.retain(|p| !p.extension().is_some_and(|e| e == "txt" || e == "md"));
    out.sort();
    out
}

#[test]
fn the_c_tests_pass() {
    passes(&Command::new(program()).output().unwrap());
}

#[test]
fn the_c_tests_pass_against_the_shared_library() {
    let dir = libraries();
    let search = std::ffi::OsString::from(format!("-L{}", dir.display()));
    let exe = compiled(
        "test_abi_shared",
        &[search.as_os_str(), std::ffi::OsStr::new("-lmcp_agent_view_c")],
    );
    let output = Command::new(&exe).env("LD_LIBRARY_PATH", dir).output().unwrap();
    passes(&output);
    // It is the shared library that ran: the program does not hold the library's code.
    let size = std::fs::metadata(&exe).unwrap().len();
    let library = std::fs::metadata(dir.join("libmcp_agent_view_c.so")).unwrap().len();
    assert!(size * 10 < library, "{size} bytes against the library's {library}");
}

#[test]
fn no_call_panics_on_any_vector_or_seed() {
    let corpus = corpus();
    assert!(corpus.len() > 100, "{} files", corpus.len());
    let output = Command::new(program()).arg("--corpus").args(&corpus).output().unwrap();
    passes(&output);
}

fn valgrind(args: &[&std::ffi::OsStr]) -> Output {
    let found = Command::new("valgrind").arg("--version").output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "valgrind is not installed (Debian: apt-get install valgrind)"
    );
    Command::new("valgrind")
        .args([
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "--show-leak-kinds=definite,indirect",
            "--error-exitcode=3",
            "--quiet",
        ])
        .arg(program())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn nothing_leaks_under_valgrind() {
    passes(&valgrind(&[]));
    // Every lane on the MCP vectors, errors included.
    let vectors: Vec<PathBuf> = corpus()
        .into_iter()
        .filter(|p| p.starts_with(root().join("tests/vectors/mcp")))
        .collect();
    let mut args = vec![std::ffi::OsStr::new("--corpus")];
    args.extend(vectors.iter().map(|p| p.as_os_str()));
    passes(&valgrind(&args));
}

#[test]
fn the_bridge_answers_from_the_everything_server() {
    let server = root().join("live/node_modules/.bin/mcp-server-everything");
    assert!(
        server.exists(),
        "the everything server is not installed: run `npm ci --prefix live` (looked for {})",
        server.display()
    );
    let output = Command::new(program())
        .arg("--server")
        .arg(&server)
        .arg("stdio")
        .output()
        .unwrap();
    passes(&output);
}

#[test]
fn the_bridge_answers_a_server_that_asks_through_the_callback() {
    let server = root().join("tests/support/asking-server.mjs");
    let output = Command::new(program())
        .arg("--asking")
        .arg("node")
        .arg(&server)
        .output()
        .unwrap();
    passes(&output);
}
