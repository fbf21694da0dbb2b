//! The layering of `src/`: no import cycle among its modules, no operation
//! file importing another, and render alone reaching the tree being
//! written (`output`).
//!
//! Each module (a file) uses every module a path in its code names:
//! `crate::` and `super::` paths anywhere (in `use` items, grouped or not,
//! and in expressions), test modules left out where they start (a
//! `#[cfg(test)]` item and nothing after it) and test files left out
//! whole (a `#[cfg(test)] mod tests;` names one). A module and everything under
//! it are one node: when a file under `a::b` uses one under `a::c`, the
//! node `a::b` depends on its sibling `a::c` (a parent and its own children
//! are one unit: a parent declares its children, a child may use its
//! parent's items). No two sibling nodes may depend on each other, directly
//! or around a longer cycle. The check is itself tested on planted cycles
//! of each kind.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::Path;

/// Module path (`api::index::select`) to its source, test items cut out,
/// for every `.rs` file under `root`.
fn modules(root: &Path) -> BTreeMap<String, String> {
    let mut modules = BTreeMap::new();
    for path in crate::harness::files_under(root) {
        if path.extension().is_none_or(|ext| ext != "rs") {
            continue;
        }
        let relative = path.strip_prefix(root).expect("under src");
        let mut parts: Vec<String> = relative
            .with_extension("")
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        if matches!(
            parts.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            parts.pop();
        }
        let text = fs::read_to_string(&path).expect("read module");
        modules.insert(parts.join("::"), text);
    }
    // A module declared under `#[cfg(test)]` (`mod tests;`, its own file)
    // is test code, as an inline test module is.
    let test_files: Vec<String> = modules
        .iter()
        .flat_map(|(name, code)| {
            test_declarations(code)
                .into_iter()
                .map(move |child| join(name, &child))
        })
        .collect();
    modules.retain(|name, _| {
        !test_files
            .iter()
            .any(|test| name == test || name.starts_with(&format!("{test}::")))
    });
    modules
        .into_iter()
        .map(|(name, code)| (name, without_tests(&code)))
        .collect()
}

/// `child` under the module `parent` (`""` is the crate).
fn join(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_owned()
    } else {
        format!("{parent}::{child}")
    }
}

/// The modules `code` declares as test code in their own file: the names
/// of its `#[cfg(test)] mod NAME;` items.
fn test_declarations(code: &str) -> Vec<String> {
    code.match_indices("#[cfg(test)]")
        .filter_map(|(at, attribute)| {
            let item = code[at + attribute.len()..].trim_start();
            let name = item
                .strip_prefix("pub(crate) mod ")
                .or_else(|| item.strip_prefix("pub mod "))
                .or_else(|| item.strip_prefix("mod "))?;
            let (name, _) = name.split_once(';')?;
            let name = name.trim();
            name.chars()
                .all(|c| c.is_alphanumeric() || c == '_')
                .then(|| name.to_owned())
        })
        .collect()
}

/// `code` without its `#[cfg(test)]` items: the attribute and the item it
/// applies to (a `mod x;` line, or a block up to its matching brace). Code
/// after a test module is kept.
fn without_tests(code: &str) -> String {
    let mut kept = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let item = &rest[at..];
        let end = match (item.find(';'), item.find('{')) {
            (Some(semi), Some(brace)) if semi < brace => semi + 1,
            (_, Some(brace)) => matching_brace(item, brace).map_or(item.len(), |end| end + 1),
            (Some(semi), None) => semi + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    kept.push_str(rest);
    kept
}

/// The index of the brace closing the one at `open` (braces inside string
/// and character literals are rare enough in module code to ignore).
fn matching_brace(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (index, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + index);
                }
            }
            _ => {}
        }
    }
    None
}

/// The paths after `prefix` in `code`, groups expanded: `crate::api::{index
/// ::Index, json}` gives `api::index::Index` and `api::json`.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        expand("", &code[at + prefix.len()..], &mut paths);
    }
    paths
}

/// Adds to `out` the paths that `text` starts with, each after `base`.
fn expand(base: &str, text: &str, out: &mut Vec<String>) {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    let head = text[..end].trim_end_matches(':');
    let path = match (base.is_empty(), head.is_empty()) {
        (true, _) => head.to_owned(),
        (false, true) => base.to_owned(),
        (false, false) => format!("{base}::{head}"),
    };
    let rest = &text[end..];
    if (head.is_empty() || text[..end].ends_with("::")) && rest.starts_with('{') {
        let Some(close) = matching_brace(rest, 0) else {
            return;
        };
        for part in split_top_level(&rest[1..close]) {
            expand(&path, part, out);
        }
    } else if !path.is_empty() {
        out.push(path);
    }
}

/// The comma-separated parts of a group, nested groups kept whole.
fn split_top_level(group: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&group[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .collect()
}

/// The longest known module that `path` starts with.
fn module_of(path: &str, known: &BTreeSet<&str>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (0..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|candidate| known.contains(candidate.as_str()))
}

/// Whether one of the two modules contains the other (the crate root
/// contains every module).
fn related(a: &str, b: &str) -> bool {
    a.is_empty()
        || b.is_empty()
        || a == b
        || a.starts_with(&format!("{b}::"))
        || b.starts_with(&format!("{a}::"))
}

/// The two sibling nodes a use of `used` by `module` connects: the
/// children of their closest common ancestor on the way to each (`None`
/// when one contains the other).
fn siblings(module: &str, used: &str) -> Option<(String, String)> {
    if related(module, used) {
        return None;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (module.split("::").collect(), used.split("::").collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    Some((a[..=common].join("::"), b[..=common].join("::")))
}

/// Node (a module with everything under it) to the sibling nodes it uses.
fn dependencies(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(root);
    let known: BTreeSet<&str> = modules.keys().map(String::as_str).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, code) in &modules {
        let parent = name.rsplit_once("::").map_or("", |(parent, _)| parent);
        let absolute = paths_after(code, "crate::");
        // `super` of `a::b::c` (a/b/c.rs) is `a::b`, and of `a::b`
        // (a/b/mod.rs) is `a`: the parent either way.
        let relative = paths_after(code, "super::").into_iter().map(|path| {
            if parent.is_empty() {
                path
            } else {
                format!("{parent}::{path}")
            }
        });
        for used in absolute
            .into_iter()
            .chain(relative)
            .filter_map(|path| module_of(&path, &known))
        {
            if let Some((from, to)) = siblings(name, &used) {
                graph.entry(from).or_default().insert(to);
            }
        }
    }
    graph
}

/// A shortest path of nodes from `from` to `to`, both included.
fn path(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(next) = queue.pop_front() {
        if next == to {
            let mut path = vec![to.to_owned()];
            let mut at = to;
            while at != from {
                at = previous[at];
                path.push(at.to_owned());
            }
            path.reverse();
            return Some(path);
        }
        for used in graph.get(next).into_iter().flatten() {
            if used != from && !previous.contains_key(used.as_str()) {
                previous.insert(used, next);
                queue.push_back(used);
            }
        }
    }
    None
}

/// Every cycle, one per node and edge on it, as `a -> b -> … -> a`.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (node, uses) in graph {
        for used in uses {
            if let Some(back) = path(graph, used, node) {
                let mut cycle = vec![node.clone()];
                cycle.extend(back);
                found.push(cycle.join(" -> "));
            }
        }
    }
    found
}

#[test]
fn no_module_of_src_reaches_back_to_itself() {
    let graph = dependencies(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(graph.len() > 20, "found the nodes: {}", graph.len());
    assert!(
        graph["render::site"].contains("render::templates"),
        "sees crate:: paths below a node"
    );
    let found = cycles(&graph);
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

/// A planted source tree: `(file under src, its code)`.
fn plant(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (file, code) in files {
        let path = dir.path().join(file);
        fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        fs::write(path, code).expect("write");
    }
    dir
}

/// The import cycles of a planted source tree.
fn planted(files: &[(&str, &str)]) -> Vec<String> {
    cycles(&dependencies(plant(files).path()))
}

#[test]
fn the_check_finds_a_planted_cycle_of_each_kind() {
    let lib = ("lib.rs", "pub mod a;\npub mod b;\n");
    // Plain paths both ways.
    let found = planted(&[
        lib,
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        ("b.rs", "pub struct B;\nfn f() -> crate::a::A { todo!() }\n"),
    ]);
    assert_eq!(found.len(), 2, "{found:?}");
    // Grouped `use super::{…}` and `use crate::{…}` imports.
    let found = planted(&[
        ("lib.rs", "pub mod m;\n"),
        ("m/mod.rs", "pub mod a;\npub mod b;\n"),
        ("m/a.rs", "use super::{b::{self, B}, Other};\n"),
        ("m/b.rs", "use crate::{m::a::A, x};\n"),
    ]);
    assert_eq!(found.len(), 2, "{found:?}");
    // A parent and its children are one unit; sibling subtrees are nodes,
    // whatever depth their files are at.
    let found = planted(&[
        ("lib.rs", "pub mod m;\n"),
        (
            "m/mod.rs",
            "pub mod a;\npub mod b;\nfn f() { crate::m::b::g(); }\n",
        ),
        ("m/a/mod.rs", "pub mod x;\npub fn h() { super::f(); }\n"),
        ("m/a/x.rs", "pub fn y() { super::h(); }\n"),
        ("m/b.rs", "pub fn g() {}\n"),
    ]);
    assert!(found.is_empty(), "children using their parents: {found:?}");
    let found = planted(&[
        ("lib.rs", "pub mod m;\n"),
        ("m/mod.rs", "pub mod a;\npub mod b;\n"),
        ("m/a/mod.rs", "pub mod x;\n"),
        ("m/a/x.rs", "pub fn y() { crate::m::b::g(); }\n"),
        ("m/b.rs", "use super::a::x::y;\npub fn g() {}\n"),
    ]);
    assert_eq!(found.len(), 2, "siblings through a grandchild: {found:?}");
    // Code after a test module still counts; the test module does not.
    let found = planted(&[
        lib,
        (
            "a.rs",
            "#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\nuse crate::b::C;\n",
        ),
        ("b.rs", "use crate::a::A;\n"),
    ]);
    assert_eq!(found.len(), 2, "{found:?}");
    let found = planted(&[
        lib,
        (
            "a.rs",
            "#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n",
        ),
        ("b.rs", "use crate::a::A;\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
    // A test module in its own file is test code too, whatever it uses;
    // a module of the same name declared for every build is not.
    let found = planted(&[
        lib,
        ("a.rs", "#[cfg(test)]\nmod tests;\n"),
        ("a/tests.rs", "use crate::b::B;\n"),
        ("b.rs", "use crate::a::A;\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
    let found = planted(&[
        lib,
        ("a.rs", "mod tests;\n"),
        ("a/tests.rs", "use crate::b::B;\n"),
        ("b.rs", "use crate::a::A;\n"),
    ]);
    assert_eq!(found.len(), 2, "{found:?}");
}

/// The modules of `api::ops` that are not an operation: the trait and the
/// table that lists the operations.
const NOT_AN_OPERATION: [&str; 2] = ["api::ops::op", "api::ops::table"];

/// Each operation file's uses of another operation file, as `a -> b`.
fn operations_importing_operations(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let operation = |node: &str| {
        node.strip_prefix("api::ops::")
            .is_some_and(|name| !name.contains("::"))
            && !NOT_AN_OPERATION.contains(&node)
    };
    graph
        .iter()
        .filter(|(node, _)| operation(node))
        .flat_map(|(node, uses)| {
            uses.iter()
                .filter(|used| operation(used))
                .map(move |used| format!("{node} -> {used}"))
        })
        .collect()
}

#[test]
fn an_operation_file_imports_no_other() {
    let graph = dependencies(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let operations = graph
        .keys()
        .filter(|node| node.starts_with("api::ops::"))
        .count();
    assert!(operations >= 10, "found the operation files: {operations}");
    let found = operations_importing_operations(&graph);
    assert!(
        found.is_empty(),
        "operation files importing each other:\n{}",
        found.join("\n")
    );
    // The check itself, on a planted tree: one operation using another.
    let dir = plant(&[
        ("lib.rs", "pub mod api;\n"),
        ("api/mod.rs", "pub mod ops;\n"),
        ("api/ops/mod.rs", "pub mod a;\npub mod b;\npub mod op;\n"),
        ("api/ops/op.rs", "pub trait Op {}\n"),
        ("api/ops/a.rs", "use super::op::Op;\nuse super::b::B;\n"),
        ("api/ops/b.rs", "use super::op::Op;\npub struct B;\n"),
    ]);
    assert_eq!(
        operations_importing_operations(&dependencies(dir.path())),
        ["api::ops::a -> api::ops::b"]
    );
}

/// The top-level modules that use `output`, the tree being written.
fn writers_of_the_tree(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<&str> {
    graph
        .iter()
        .filter(|(node, uses)| !node.contains("::") && uses.contains("output"))
        .map(|(node, _)| node.as_str())
        .collect()
}

/// Of the stages, render alone reaches the tree being written: `generate`
/// lists the steps and hands the tree to render (`render::tree` stages,
/// publishes or abandons it), so a run's options enter `output` from one
/// place. `cli` names only the default of `--keep`.
#[test]
fn render_alone_writes_the_tree() {
    let graph = dependencies(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert_eq!(writers_of_the_tree(&graph), ["cli", "render"]);
    // The check itself, on a planted tree: a stage writing a file itself.
    let dir = plant(&[
        (
            "lib.rs",
            "pub mod generate;\npub mod output;\npub mod render;\n",
        ),
        ("output.rs", "pub struct TreeWriter;\n"),
        ("render/mod.rs", "pub use crate::output::TreeWriter;\n"),
        ("generate/mod.rs", "use crate::output::TreeWriter;\n"),
    ]);
    assert_eq!(
        writers_of_the_tree(&dependencies(dir.path())),
        ["generate", "render"]
    );
}
