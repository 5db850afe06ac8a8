//! The documentation's references: every relative link of the README, `docs/` and `calibrate/README.md`
//! names a file of the repository, and every `uses:` of the action names the repository `Cargo.toml` gives.

use std::fs;
use std::path::{Path, PathBuf};

use super::support::root;

/// Pages linked before they land in this branch: a link to one is accepted while the file is missing, and
/// checked as any other once it exists.
const PENDING: [&str; 1] = ["docs/security.md"];

/// The Markdown files whose links are checked, relative to the repository root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![
        PathBuf::from("README.md"),
        PathBuf::from("calibrate/README.md"),
    ];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| Path::new("docs").join(path.file_name().expect("a file name")))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The targets of the inline links `[text](target)` and images `![text](target)` of `text`.
fn link_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let end = rest.find(')')?;
            let target = &rest[..end];
            (!target.is_empty() && !target.contains(char::is_whitespace)).then_some(target)
        })
        .collect()
}

/// A link to another site or to an anchor of the same page: not a file of the repository.
fn is_external(target: &str) -> bool {
    target.starts_with('#') || target.contains("://") || target.starts_with("mailto:")
}

/// `target` as written in `page`, relative to the repository root, without its anchor; `None` when it
/// leaves the repository.
fn resolve(page: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split('#').next().unwrap_or(target);
    let mut resolved = page.parent().map(Path::to_path_buf).unwrap_or_default();
    for part in Path::new(path).components() {
        match part {
            std::path::Component::ParentDir => {
                if !resolved.pop() {
                    return None;
                }
            }
            std::path::Component::CurDir => {}
            other => resolved.push(other),
        }
    }
    Some(resolved)
}

#[test]
fn link_targets_are_read_from_links_and_images_only() {
    let text = "See [the docs](docs/a.md#x), ![a picture](b.png), [a site](https://e.org) \
                and (not a link) or `f(x)` [two words](not a link).";
    assert_eq!(
        link_targets(text),
        ["docs/a.md#x", "b.png", "https://e.org"]
    );
    assert_eq!(
        resolve(Path::new("docs/usage.md"), "../calibrate/README.md#out"),
        Some(PathBuf::from("calibrate/README.md"))
    );
    assert_eq!(resolve(Path::new("README.md"), "../outside.md"), None);
}

#[test]
fn every_relative_link_of_the_documentation_names_a_file_of_the_repository() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = fs::read_to_string(root().join(&page)).expect("a page");
        for target in link_targets(&text).into_iter().filter(|t| !is_external(t)) {
            checked += 1;
            match resolve(&page, target) {
                Some(path) if root().join(&path).exists() => {}
                Some(path) if PENDING.iter().any(|p| Path::new(p) == path) => {}
                _ => broken.push(format!("{}: {target}", page.display())),
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the parser broken?"
    );
    assert!(
        broken.is_empty(),
        "links to no file:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_actions_uses_lines_name_the_repository_of_cargo_toml() {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let field = |name: &str| {
        manifest
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{name} = \"")))
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or_else(|| panic!("Cargo.toml has no {name}"))
            .to_string()
    };
    let repository = field("repository");
    assert!(field("homepage").starts_with("https://"));
    let slug = repository
        .strip_prefix("https://github.com/")
        .unwrap_or_else(|| panic!("{repository} is not a GitHub repository"));
    let mut uses = 0;
    for page in pages() {
        let text = fs::read_to_string(root().join(&page)).expect("a page");
        for line in text.lines() {
            let Some(action) = line.trim().trim_start_matches("- ").strip_prefix("uses: ") else {
                continue;
            };
            let name = action.split('@').next().unwrap_or(action);
            if name.starts_with("actions/") {
                continue;
            }
            uses += 1;
            assert_eq!(name, slug, "{}: {line}", page.display());
        }
    }
    assert!(uses >= 3, "the README and docs/action.md show the action");
}
