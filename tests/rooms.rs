//! The house's floors point down: every file of `src/` reaches with `crate::…` only rooms on
//! floors below its own, as the rooms table of `docs/README.md` gives them. A room's own tests
//! (its `#[cfg(test)]` module, or its `tests.rs`) and comments are free; the root
//! (`src/lib.rs`) and the CLI stand above every room.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The room a file of `src/` belongs to: its first path component, without `.rs`.
fn room_of(path: &Path) -> String {
    let first = path.components().next().unwrap().as_os_str().to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// Each room's floor, from the table's rows: `| floor | `src/room…` | … |`.
fn floors() -> BTreeMap<String, u32> {
    let docs = std::fs::read_to_string("docs/README.md").unwrap();
    let table = docs
        .split("## Rooms\n")
        .nth(1)
        .expect("docs/README.md has a Rooms section");
    let mut floors = BTreeMap::new();
    for row in table.lines().take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (Some(floor), Some(path)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let (Ok(floor), Some(path)) = (floor.parse::<u32>(), path.strip_prefix("`src/")) else {
            continue;
        };
        let room = room_of(Path::new(path.trim_end_matches('`')));
        let before = floors.insert(room.clone(), floor);
        assert!(
            before.is_none_or(|f| f == floor),
            "docs/README.md puts {room} on two floors"
        );
    }
    floors
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its test module.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first name of every path `crate::…` in `code`, those of a `crate::{…}` group each.
fn reached(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c == '$' || c.is_alphanumeric() || c == '_') {
            continue; // `$crate::` in a macro, or a name ending in `crate`
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: split at commas outside nested braces.
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        names.push(ident(group[start..i].trim()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.push(ident(group[start..i].trim()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

#[test]
fn every_room_reaches_only_rooms_below_it() {
    let floors = floors();
    assert!(floors.len() >= 15, "the rooms table lists {} rooms", floors.len());
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let mut wrong = Vec::new();
    for path in &files {
        let inside = path.strip_prefix("src").unwrap();
        let room = room_of(inside);
        if room == "lib" || room == "bin" || path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let Some(&floor) = floors.get(&room) else {
            wrong.push(format!("{}: room {room} is not in the rooms table", path.display()));
            continue;
        };
        let code = code_of(&std::fs::read_to_string(path).unwrap());
        for name in reached(&code) {
            if name == room {
                continue;
            }
            match floors.get(&name) {
                Some(&to) if to < floor => {}
                Some(&to) => wrong.push(format!(
                    "{}: {room} (floor {floor}) reaches {name} (floor {to})",
                    path.display()
                )),
                None => wrong.push(format!(
                    "{}: {room} (floor {floor}) reaches crate::{name}, the root (name the room that holds it)",
                    path.display()
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The reader of paths finds what it should: a plain path, a group, nested groups, and not a
/// macro's `$crate`.
#[test]
fn the_reader_of_paths_finds_each_room() {
    let code = "use crate::a::B;\nuse crate::{b::C, c::{D, E}, d};\nlet x = $crate::e::F;\ncrate::f::g();";
    assert_eq!(reached(code), ["a", "b", "c", "d", "f"]);
    assert_eq!(
        code_of("use crate::a;\n// crate::b\n#[cfg(test)]\nmod tests { use crate::c; }"),
        "use crate::a;"
    );
}
