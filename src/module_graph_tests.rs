//! The rule that keeps the modules readable one at a time: no import loop between source files, and no
//! import from a lower layer to a higher one (the layers are listed in the crate doc, `lib.rs`).
//!
//! The graph is read from the product code of every file under `src/` (test files, named `*tests.rs`,
//! the fixtures of `testutil/`, and what follows `#[cfg(test)] mod` are left out; so are comments, doc
//! links included, and the text of string and character literals). Every import form is an edge to the
//! deepest module file it names: `use` trees (grouped, nested, `self` in a group, globs, `pub use` and
//! `pub(crate) use` re-exports), and paths written in expressions and types without a `use`
//! (`crate::a::b::f()`, `super::x::T`), whether they start at `crate`, `self`, `super` (repeated), a child
//! module the file declares or a name a `use` brought into scope (`use plain::plain`, `use crate::report
//! as r; r::x::f()`). An edge from a file to one of its own ancestors (a child naming an item of its
//! parent's `mod.rs`) is not counted: a `mod.rs` that declares its children and re-exports them is their
//! index, not a user. Must not: compile or expand anything; a path a macro builds is not read.

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

/// Every product source file under `src/`, by module path, with its text.
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
        found.insert(
            module,
            std::fs::read_to_string(&path).expect("a source file"),
        );
    }
}

/// The product code of a file: comments and the text of string and character literals blanked (line breaks
/// kept), so that neither a comment, a doc link nor a message is read as a path; then up to its inline test
/// module (a `#[cfg(test)] mod` written inside a string or a comment does not end it).
fn product_code(text: &str) -> String {
    crate::purity_tests::product_part(&blank_comments_and_literals(text)).to_string()
}

/// `code` with each comment (line, block, nested block, doc) and each string, raw string, byte string and
/// character literal replaced by spaces; line breaks stay, and so do lifetimes.
fn blank_comments_and_literals(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if !word_before
            && (c == 'r' || (c == 'b' && next == Some('r')))
            && raw_string_at(&chars, i)
        {
            // r"..", r#".."#, br".." : the closing quote is followed by as many hashes as opened it.
            let mut j = i + usize::from(c == 'b') + 1;
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            chars[i..j.min(chars.len())]
                .iter()
                .for_each(|&c| blank(&mut out, c));
            i = j;
        } else if c == '"' {
            blank(&mut out, c);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let step = if chars[i] == '\\' { 2 } else { 1 };
                for _ in 0..step.min(chars.len() - i) {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            if i < chars.len() {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{..}'); a lifetime ('a) has no closing quote.
            let mut j = i + 1;
            if chars[j] == '\\' {
                j += 2;
            }
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            chars[i..(j + 1).min(chars.len())]
                .iter()
                .for_each(|&c| blank(&mut out, c));
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether a raw string literal (`r"`, `r#"`, `br"`, ...) starts at `i`.
fn raw_string_at(chars: &[char], i: usize) -> bool {
    let mut j = i + if chars[i] == 'b' { 2 } else { 1 };
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

/// A token of blanked code: a word, `::`, or one other character.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    PathSep,
    Punct(char),
}

fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            found.push(Token::Word(chars[start..i].iter().collect()));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            found.push(Token::PathSep);
            i += 2;
        } else {
            found.push(Token::Punct(c));
            i += 1;
        }
    }
    found
}

/// A path as written in a file, with the module it is written in (the file's module, or an inline module
/// inside it), and, for a `use` leaf, the name it brings into scope.
#[derive(Debug, Clone, PartialEq)]
struct Written {
    /// The segments as written: `["super", "a", "B"]`; a path from outside the crate (`::std::..`) starts
    /// with `"::"`.
    segments: Vec<String>,
    /// The module `self` means where the path is written.
    scope: ModulePath,
    /// The name a `use` leaf binds (its last segment or its `as` alias), `None` for a path in an
    /// expression or type, a glob, or `as _`.
    binds: Option<String>,
}

/// What a file writes: every `use` leaf (groups, nested groups, `pub use` and `pub(crate) use` alike), every
/// path of two segments or more in an expression or a type, and the child modules it declares (`mod a;`).
fn written(module: &ModulePath, code: &str) -> (Vec<Written>, Vec<String>) {
    let toks = tokens(code);
    let word = |i: usize| match toks.get(i) {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let mut paths = Vec::new();
    let mut children = Vec::new();
    // The inline modules the cursor is in, each with the brace depth its body opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut pending_inline: Option<String> = None;
    let mut depth = 0;
    let mut i = 0;
    while i < toks.len() {
        let scope = || {
            let mut scope = module.clone();
            scope.extend(inline.iter().map(|(name, _)| name.clone()));
            scope
        };
        match &toks[i] {
            Token::Punct('{') => {
                depth += 1;
                if let Some(name) = pending_inline.take() {
                    inline.push((name, depth));
                }
                i += 1;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|(_, at)| *at == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Token::Word(w) if w == "mod" && word(i + 1).is_some() => {
                let name = word(i + 1).unwrap_or_default().to_string();
                match toks.get(i + 2) {
                    Some(Token::Punct(';')) if inline.is_empty() => children.push(name),
                    Some(Token::Punct('{')) => pending_inline = Some(name),
                    _ => {}
                }
                i += 2;
            }
            Token::Word(w)
                if w == "use" && toks.get(i.wrapping_sub(1)) != Some(&Token::PathSep) =>
            {
                let scope = scope();
                let mut leaves = Vec::new();
                i = use_tree(&toks, i + 1, Vec::new(), &mut leaves);
                for (segments, binds) in leaves {
                    paths.push(Written {
                        segments,
                        scope: scope.clone(),
                        binds,
                    });
                }
            }
            Token::Word(first)
                if toks.get(i + 1) == Some(&Token::PathSep)
                    && toks.get(i.wrapping_sub(1)) != Some(&Token::PathSep) =>
            {
                let mut segments = vec![first.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Token::PathSep) {
                    match word(j + 1) {
                        Some(next) => segments.push(next.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                paths.push(Written {
                    segments,
                    scope: scope(),
                    binds: None,
                });
                i = j;
            }
            Token::PathSep if i == 0 || !matches!(toks[i - 1], Token::Word(_)) => {
                // `::std::..`: a path from outside the crate; skip its segments.
                i += 1;
                while word(i).is_some() && toks.get(i + 1) == Some(&Token::PathSep) {
                    i += 2;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    (paths, children)
}

/// Reads the `use` tree that starts at token `i` (after `use`, or inside a group) under `prefix`, pushing
/// each leaf (its segments and the name it binds) to `leaves`; returns the index past the tree.
fn use_tree(
    toks: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    leaves: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    if toks.get(i) == Some(&Token::PathSep) {
        prefix.push("::".to_string());
        i += 1;
    }
    loop {
        match toks.get(i) {
            Some(Token::Word(w)) => {
                prefix.push(w.clone());
                i += 1;
                if toks.get(i) == Some(&Token::PathSep) {
                    i += 1;
                    continue;
                }
                let mut binds = Some(w.clone());
                if toks.get(i) == Some(&Token::Word("as".to_string())) {
                    binds = match toks.get(i + 1) {
                        Some(Token::Word(alias)) => Some(alias.clone()),
                        _ => None,
                    };
                    i += 2;
                }
                if w == "self" {
                    // `a::{self}` and `a::{self as b}` bind `a` (or `b`) itself.
                    prefix.pop();
                    if binds.as_deref() == Some("self") {
                        binds = prefix.last().cloned();
                    }
                }
                leaves.push((prefix, binds.filter(|b| b != "_")));
                return i;
            }
            Some(Token::Punct('*')) => {
                leaves.push((prefix, None));
                return i + 1;
            }
            Some(Token::Punct('{')) => {
                i += 1;
                while i < toks.len() && toks[i] != Token::Punct('}') {
                    if toks[i] == Token::Punct(',') {
                        i += 1;
                        continue;
                    }
                    i = use_tree(toks, i, prefix.clone(), leaves);
                }
                return i + 1;
            }
            _ => return i,
        }
    }
}

/// The absolute module path (from the crate root) `segments`, written in `scope`, names: `crate::`,
/// `self::`, `super::` (repeated), a child module or a name a `use` brought into scope; `None` for a path
/// from outside the crate (`std::..`, `::serde::..`) or one that starts at a local item.
fn absolute(
    segments: &[String],
    scope: &ModulePath,
    names: &BTreeMap<String, ModulePath>,
) -> Option<ModulePath> {
    let (first, mut rest) = segments.split_first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "self" => scope.clone(),
        "super" => scope[..scope.len().checked_sub(1)?].to_vec(),
        name => names.get(name)?.clone(),
    };
    while let Some((next, after)) = rest.split_first() {
        match next.as_str() {
            "super" => {
                base.pop()?;
            }
            "self" => {}
            _ => break,
        }
        rest = after;
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The module files the file of `module` (its text `text`) imports from, among `known`: the deepest known
/// module each path it writes names (a use leaf, a path in an expression or a type, a `pub use`), itself
/// and its ancestors left out.
fn file_edges(
    module: &ModulePath,
    text: &str,
    known: &BTreeSet<ModulePath>,
) -> BTreeSet<ModulePath> {
    let (paths, children) = written(module, &product_code(text));
    // The names in scope: the child modules, then each `use` binding, resolved until nothing changes (a
    // `use` may start at a name another `use` brought in).
    let mut names: BTreeMap<String, ModulePath> = children
        .iter()
        .map(|child| {
            let mut path = module.clone();
            path.push(child.clone());
            (child.clone(), path)
        })
        .collect();
    loop {
        let before = names.len();
        for path in &paths {
            if let Some(name) = &path.binds {
                if !names.contains_key(name) {
                    if let Some(to) = absolute(&path.segments, &path.scope, &names) {
                        names.insert(name.clone(), to);
                    }
                }
            }
        }
        if names.len() == before {
            break;
        }
    }
    paths
        .iter()
        .filter_map(|path| absolute(&path.segments, &path.scope, &names))
        .filter_map(|to| {
            (1..=to.len())
                .rev()
                .map(|k| to[..k].to_vec())
                .find(|prefix| known.contains(prefix))
        })
        .filter(|to| !module.starts_with(to))
        .collect()
}

/// The edges between module files, ancestors left out.
fn edges() -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
    let files = modules();
    let known: BTreeSet<ModulePath> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(module, text)| (module.clone(), file_edges(module, text, &known)))
        .filter(|(_, to)| !to.is_empty())
        .collect()
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

/// `s` (`a::b`) as a module path.
fn m(s: &str) -> ModulePath {
    s.split("::")
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect()
}

/// The edges `text`, the file of `module`, has among a small tree of modules.
fn edges_of(module: &str, text: &str) -> Vec<String> {
    let known: BTreeSet<ModulePath> = [
        "", "a", "a::b", "a::b::c", "a::d", "a::d::e", "f", "f::g", "f::g::h",
    ]
    .into_iter()
    .map(m)
    .collect();
    file_edges(&m(module), text, &known)
        .iter()
        .map(|p| p.join("::"))
        .collect()
}

#[test]
fn each_import_form_gives_its_edge() {
    // Absolute, `super::`, nested `super::super::` and `self::` paths in `use`.
    assert_eq!(edges_of("a::b", "use crate::f::g::Item;"), ["f::g"]);
    assert_eq!(
        edges_of("a::b::c", "use super::super::d::e::Item;"),
        ["a::d::e"]
    );
    assert_eq!(edges_of("a::b", "use super::d::Item;"), ["a::d"]);
    assert_eq!(edges_of("a", "use self::d::Item;"), ["a::d"]);
    // A relative `use` that starts at a child module, and one at a name another `use` brought in.
    assert_eq!(edges_of("a::b", "mod c;\nuse c::Item;"), ["a::b::c"]);
    assert_eq!(
        edges_of("a::b", "use crate::f;\nuse f::g::h::Item;"),
        ["f", "f::g::h"]
    );
    assert_eq!(
        edges_of("a::b", "use crate::f as other;\nfn x() { other::g::go(); }"),
        ["f", "f::g"]
    );
    // Grouped and nested trees, `self` in a group, globs.
    assert_eq!(
        edges_of("a::b", "use crate::{a::d::{self, e::Item}, f::g::*};"),
        ["a::d", "a::d::e", "f::g"]
    );
    // Re-exports: `pub use`, `pub(crate) use` of a child.
    assert_eq!(edges_of("a", "pub use crate::f::g::Item;"), ["f::g"]);
    assert_eq!(
        edges_of("a", "mod d;\npub(crate) use d::e::Item;"),
        ["a::d::e"]
    );
    // Paths in expressions and types, with no `use`, across a line break and behind a turbofish.
    assert_eq!(edges_of("a::b", "fn x() { crate::f::g::go(); }"), ["f::g"]);
    assert_eq!(
        edges_of("a::b::c", "fn x(t: super::super::d::Thing) {}"),
        ["a::d"]
    );
    assert_eq!(
        edges_of("a::b", "const N: usize = crate::f::g::h\n    ::MAX;"),
        ["f::g::h"]
    );
    assert_eq!(
        edges_of("a::b", "fn x() { crate::f::g::go::<u8>(); }"),
        ["f::g"]
    );
    assert_eq!(edges_of("a::b", "mod c;\nfn x() { c::go(); }"), ["a::b::c"]);
    // Inside an inline module, `super` is the file's module.
    assert_eq!(
        edges_of("a::b", "mod inner {\n    use super::c::Item;\n}"),
        ["a::b::c"]
    );
}

#[test]
fn comments_doc_links_literals_and_other_crates_give_no_edge() {
    let none: [&str; 0] = [];
    for text in [
        "// use crate::f::g::Item;",
        "/// See [`crate::f::g::Item`].\nfn x() {}",
        "//! The map: [`super::d`].",
        "/* use crate::f; /* nested */ crate::f::g::go(); */",
        "fn x() -> &'static str { \"crate::f::g::go()\" }",
        "fn x() -> &'static str { r#\"crate::f::g::go() \" \"# }",
        "fn x() -> char { '\"' } fn y() -> &'static str { \"crate::f\" }",
        "use std::collections::BTreeMap;\nuse ::serde::Serialize;\nfn x() { std::mem::drop(1); }",
        "use super::Item;\nfn x() { Item::new(); Self::go(); T::go(); }",
        "use crate::a::b::Item;\nuse self::Inner;\nuse super::Parent;",
    ] {
        assert_eq!(edges_of("a::b", text), none, "{text}");
    }
    // A test module is not read; one written in a string does not hide the code after it.
    assert_eq!(
        edges_of(
            "a::b",
            "const T: &str = \"#[cfg(test)]\nmod tests {\";\nuse crate::f::g::Item;"
        ),
        ["f::g"]
    );
    assert_eq!(
        edges_of(
            "a::b",
            "#[cfg(test)]\nmod tests {\n    use crate::f::g::Item;\n}"
        ),
        none
    );
}

#[test]
fn the_reader_finds_loops_and_layers() {
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

/// The modules `text` declares under `#[cfg(test)]` and the test modules (`tests`, `*_tests`) it declares
/// without it.
fn test_declarations(text: &str) -> (Vec<String>, Vec<String>) {
    let code = blank_comments_and_literals(text);
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    let mut under_cfg_test = Vec::new();
    let mut test_named = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let declaration = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .fold(*line, |rest, vis| rest.strip_prefix(vis).unwrap_or(rest));
        let Some(rest) = declaration.strip_prefix("mod ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let attributes = lines[..i].iter().rev().take_while(|l| l.starts_with("#["));
        if attributes.clone().any(|l| *l == "#[cfg(test)]") {
            under_cfg_test.push(name);
        } else if name == "tests" || name.ends_with("_tests") {
            test_named.push(name);
        }
    }
    (under_cfg_test, test_named)
}

/// Whether the module file that owns the directory of `path` (its `mod.rs`, the `<dir>.rs` beside it, or
/// `lib.rs`) declares `mod <stem>`.
fn declared_by_its_parent(path: &Path, stem: &str) -> bool {
    let Some(dir) = path.parent() else {
        return false;
    };
    let mut owners = vec![dir.join("mod.rs"), dir.join("lib.rs")];
    if let (Some(up), Some(name)) = (dir.parent(), dir.file_name()) {
        owners.push(up.join(format!("{}.rs", name.to_string_lossy())));
    }
    owners.iter().any(|owner| {
        std::fs::read_to_string(owner).is_ok_and(|text| {
            let (under_cfg_test, _) = test_declarations(&text);
            under_cfg_test.iter().any(|name| name == stem)
        })
    })
}

#[test]
fn every_test_module_is_named_as_a_test() {
    // `CONTRIBUTING.md`'s convention, on which this file's reading of product code rests: a module compiled
    // for the tests only is `tests` or `*_tests` (the crate's `testutil` aside), and a module so named is
    // compiled for the tests only.
    let mut wrong = Vec::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            if path != src.join("testutil") {
                stack.extend(
                    std::fs::read_dir(&path)
                        .expect("a directory")
                        .map(|e| e.expect("an entry").path()),
                );
            }
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        if stem.ends_with("tests") {
            if !declared_by_its_parent(&path, stem) {
                let at = path
                    .strip_prefix(&src)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                wrong.push(format!("{at}: declared by no module, so never compiled"));
            }
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        let (under_cfg_test, test_named) = test_declarations(&text);
        let at = path
            .strip_prefix(&src)
            .unwrap_or(&path)
            .display()
            .to_string();
        for name in under_cfg_test {
            let allowed = name == "tests"
                || name.ends_with("_tests")
                || (at == "lib.rs" && name == "testutil");
            if !allowed {
                wrong.push(format!("{at}: #[cfg(test)] mod {name}"));
            }
        }
        for name in test_named {
            wrong.push(format!("{at}: mod {name} without #[cfg(test)]"));
        }
    }
    wrong.sort();
    assert!(
        wrong.is_empty(),
        "test modules outside the convention: {wrong:?}"
    );
}

#[test]
fn test_declarations_are_read_with_their_attributes() {
    let text = concat!(
        "mod a;\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\n#[allow(dead_code)]\npub(crate) mod helpers;\n",
        "mod more_tests;\n// #[cfg(test)]\n// mod commented;\n",
    );
    let (under_cfg_test, test_named) = test_declarations(text);
    assert_eq!(under_cfg_test, ["tests", "helpers"]);
    assert_eq!(test_named, ["more_tests"]);
}
