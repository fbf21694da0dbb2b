//! The layering of `src/`: no import cycle among its modules. Each module
//! (a file) depends on the modules its `crate::` and `super::` paths name,
//! test code left out; a module and its own ancestors or descendants are
//! one unit (a parent declares its children, a child may use its parent's
//! types), every other pair must not reach each other both ways.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module path (`api::index::select`) to its source, test code cut off.
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeMap::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&root).expect("under src");
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
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_owned();
            modules.insert(parts.join("::"), code);
        }
    }
    modules
}

/// The paths after `prefix` in `code` (`crate::api::index::Index` gives
/// `api::index::Index`), cut at the first character that is not part of a
/// path.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(at, _)| {
            let before = code[..*at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
        })
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            rest[..end].trim_end_matches(':')
        })
        .collect()
}

/// The longest known module that `path` starts with.
fn module_of(path: &str, known: &BTreeSet<&str>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|candidate| known.contains(candidate.as_str()))
}

fn related(a: &str, b: &str) -> bool {
    a.is_empty()
        || b.is_empty()
        || a.starts_with(&format!("{b}::"))
        || b.starts_with(&format!("{a}::"))
}

/// Module to the modules it uses (ancestors and descendants left out).
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let known: BTreeSet<&str> = modules.keys().map(String::as_str).collect();
    let mut graph = BTreeMap::new();
    for (name, code) in &modules {
        let parent = name.rsplit_once("::").map_or("", |(parent, _)| parent);
        let absolute = paths_after(code, "crate::").into_iter().map(str::to_owned);
        // `super` of `a::b::c` (a/b/c.rs) is `a::b`, and of `a::b`
        // (a/b/mod.rs) is `a`: the parent either way.
        let relative = paths_after(code, "super::").into_iter().map(|path| {
            if parent.is_empty() {
                path.to_owned()
            } else {
                format!("{parent}::{path}")
            }
        });
        let uses: BTreeSet<String> = absolute
            .chain(relative)
            .filter_map(|path| module_of(&path, &known))
            .filter(|used| !related(name, used))
            .collect();
        graph.insert(name.clone(), uses);
    }
    graph
}

/// Every module reachable from `start`.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = graph
        .get(start)
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    while let Some(next) = todo.pop() {
        if seen.insert(next.to_owned()) {
            todo.extend(graph.get(next).into_iter().flatten().map(String::as_str));
        }
    }
    seen
}

#[test]
fn no_module_of_src_reaches_back_to_itself() {
    let graph = dependencies();
    assert!(graph.len() > 50, "found the modules: {}", graph.len());
    assert!(
        graph["render::site::feeds"].contains("render::templates"),
        "sees crate:: paths"
    );
    let cycles: Vec<String> = graph
        .iter()
        .flat_map(|(module, uses)| {
            let graph = &graph;
            uses.iter()
                .filter(move |used| reachable(graph, used).contains(module))
                .map(move |used| format!("{module} -> {used} -> ... -> {module}"))
        })
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
