//! The rule that keeps the modules readable one at a time: no import loop between source files, and no
//! import from a lower layer to a higher one (the layers are listed in the crate doc, `lib.rs`).
//!
//! The graph is read from the product code of every file under `src/` (test files, named `*tests.rs`,
//! the fixtures of `testutil/`, and what follows `#[cfg(test)] mod` are left out; so are comments, doc
//! links included): every path that starts with `crate::`, `super::` or `self::`, with `use` groups
//! (`use super::{a::B, c}`) expanded, is an edge to the deepest module file it names. An edge from a file
//! to one of its own ancestors (a child naming an item of its parent's `mod.rs`) is not counted: a `mod.rs`
//! that declares its children and re-exports them is their index, not a user.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers from the bottom: a file may name modules of its own layer or of a lower one only.
/// `stats` and the small helpers know nothing of the tool; `model` is the data every stage shares;
/// `sources` reads inputs into it; `protocol` decides; `simulation` replays the decisions on drawn values;
/// `report` words and renders; `measure` runs bench executables (and calls the protocol between looks);
/// `cli` and `plan` parse and check the command line; `app` runs the commands; `testutil` (test code only,
/// which this check does not read) holds fixtures that may use any of them.
const LAYERS: [&[&str]; 11] = [
    &[
        "stats",
        "inert",
        "atomic_write",
        "parallel",
        "partition",
        "suggest",
    ],
    &["model"],
    &["sources"],
    &["protocol"],
    &["simulation"],
    &["report"],
    &["measure"],
    &["cli"],
    &["plan"],
    &["app"],
    &["testutil"],
];

/// A module path below the crate root, e.g. `["stats", "rank_sum"]`.
type ModulePath = Vec<String>;

/// Every product source file under `src/`, by module path.
fn modules() -> BTreeMap<ModulePath, String> {
    let mut found = BTreeMap::new();
    collect(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut found,
    );
    found
}

fn collect(dir: &Path, prefix: &[String], found: &mut BTreeMap<ModulePath, String>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let mut module = prefix.to_vec();
        if path.is_dir() {
            if prefix.is_empty() && name == "testutil" {
                continue;
            }
            module.push(name.to_string());
            collect(&path, &module, found);
            continue;
        }
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        if stem.ends_with("tests") {
            continue;
        }
        match stem {
            "lib" | "main" if prefix.is_empty() => {}
            "mod" => {}
            _ => module.push(stem.to_string()),
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        found.insert(module, product_code(&text));
    }
}

/// The product code of a file: up to its inline test module, without comments.
fn product_code(text: &str) -> String {
    let mut code = String::new();
    for line in crate::purity_tests::product_part(text).lines() {
        if line.trim().starts_with("//") {
            continue;
        }
        let without_comment = match line.find(" // ") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        code.push_str(without_comment);
        code.push('\n');
    }
    code
}

/// The paths `code` names that start at `crate`, `super` or `self`, as segment lists, `use` groups
/// expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .any(|p| rest.starts_with(p));
        let boundary = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if starts && boundary && (at < 2 || &code[at - 2..at] != "::") {
            let (mut expanded, used) = expand(rest);
            found.append(&mut expanded);
            at += used.max(1);
        } else {
            at += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    found
}

/// The paths of one path expression at the start of `text` (a `{...}` group expanded into each of its
/// members), and how many bytes it spans.
fn expand(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut segments = Vec::new();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        segments.push(rest[..len].to_string());
        at += len;
        if !text[at..].starts_with("::") {
            return (vec![segments], at);
        }
        at += 2;
        if text[at..].starts_with('{') {
            let mut result = Vec::new();
            at += 1;
            loop {
                let inner = &text[at..];
                let skip = inner.len() - inner.trim_start().len();
                at += skip;
                if text[at..].starts_with('}') {
                    return (result, at + 1);
                }
                let (members, used) = expand(&text[at..]);
                for member in members {
                    let mut path = segments.clone();
                    path.extend(member);
                    result.push(path);
                }
                at += used.max(1);
                // Past `as alias`, to the next member or the group's end.
                while at < text.len()
                    && !text[at..].starts_with(',')
                    && !text[at..].starts_with('}')
                {
                    at += text[at..].chars().next().map_or(1, char::len_utf8);
                }
                if text[at..].starts_with(',') {
                    at += 1;
                }
            }
        }
    }
    (vec![segments], at)
}

/// The module file `path`, named in the file of `module`, points to: the longest known prefix of the
/// absolute path.
fn target(
    module: &ModulePath,
    path: &[String],
    known: &BTreeMap<ModulePath, String>,
) -> Option<ModulePath> {
    let mut base: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("self") => module.clone(),
        // `super` of a `foo.rs` or a `foo/mod.rs` is the module that declares `foo`.
        Some("super") => module[..module.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    let mut rest = &path[1..];
    while rest.first().map(String::as_str) == Some("super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    (1..=base.len())
        .rev()
        .map(|k| base[..k].to_vec())
        .find(|prefix| known.contains_key(prefix))
}

/// The edges between module files, ancestors left out.
fn edges() -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
    let known = modules();
    let mut graph: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    for (module, code) in &known {
        for path in paths(code) {
            let Some(to) = target(module, &path, &known) else {
                continue;
            };
            if &to == module || module.starts_with(&to) {
                continue;
            }
            graph.entry(module.clone()).or_default().insert(to);
        }
    }
    graph
}

/// The loops of `graph`: its strongly connected components of more than one file (Tarjan).
fn loops(graph: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<ModulePath, BTreeSet<ModulePath>>,
        index: BTreeMap<&'a ModulePath, usize>,
        low: BTreeMap<&'a ModulePath, usize>,
        stack: Vec<&'a ModulePath>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(state: &mut State<'a>, v: &'a ModulePath) {
        let n = state.index.len();
        state.index.insert(v, n);
        state.low.insert(v, n);
        state.stack.push(v);
        for w in state.graph.get(v).into_iter().flatten() {
            if !state.index.contains_key(w) {
                visit(state, w);
                let low = state.low[v].min(state.low[w]);
                state.low.insert(v, low);
            } else if state.stack.contains(&w) {
                let low = state.low[v].min(state.index[w]);
                state.low.insert(v, low);
            }
        }
        if state.low[v] == state.index[v] {
            let mut component = Vec::new();
            while let Some(w) = state.stack.pop() {
                component.push(w.join("::"));
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn layer(module: &ModulePath) -> Option<usize> {
    let top = module.first()?;
    LAYERS
        .iter()
        .position(|layer| layer.contains(&top.as_str()))
}

#[test]
fn no_import_loop_between_source_files() {
    let found = loops(&edges());
    assert!(
        found.is_empty(),
        "files that import each other, directly or through others: {found:?}"
    );
}

#[test]
fn no_import_from_a_lower_layer_to_a_higher_one() {
    let mut wrong = Vec::new();
    for (from, targets) in edges() {
        let Some(from_layer) = layer(&from) else {
            continue;
        };
        for to in targets {
            if layer(&to).is_some_and(|to_layer| to_layer > from_layer) {
                wrong.push(format!("{} -> {}", from.join("::"), to.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "imports from a lower layer: {wrong:?}");
}

#[test]
fn every_top_level_module_has_a_layer() {
    let unplaced: BTreeSet<String> = modules()
        .keys()
        .filter(|m| !m.is_empty() && layer(m).is_none())
        .map(|m| m[0].clone())
        .collect();
    assert!(unplaced.is_empty(), "modules in no layer: {unplaced:?}");
}

#[test]
fn the_reader_finds_loops_layers_and_use_groups() {
    // The reader itself: a group expanded, a loop of three found, and a comment not read.
    let code = "use super::{a::B, c as d};\nfn f() { crate::x::y::z(); } // crate::q\n";
    let found = paths(&product_code(code));
    let names: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["super::a::B", "super::c", "crate::x::y::z"]);
    let m = |s: &str| s.split("::").map(String::from).collect::<ModulePath>();
    let graph: BTreeMap<ModulePath, BTreeSet<ModulePath>> = [
        (m("a"), BTreeSet::from([m("b")])),
        (m("b"), BTreeSet::from([m("c")])),
        (m("c"), BTreeSet::from([m("a")])),
        (m("d"), BTreeSet::from([m("a")])),
    ]
    .into_iter()
    .collect();
    assert_eq!(loops(&graph), vec![vec!["a", "b", "c"]]);
    assert_eq!(layer(&m("stats::rank_sum")), Some(0));
    assert_eq!(layer(&m("app::bisect")), Some(9));
}
