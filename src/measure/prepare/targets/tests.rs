//! The coverage of a real `cargo metadata` (cargo 1.95 here) of small workspaces written by the tests.

use std::path::{Path, PathBuf};

use super::*;
use crate::model::Side;
use crate::model::coverage::{Granularity, join};

/// Writes `files` (path, text) under a new directory; returns it.
fn write(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// One package `frames` whose bench target `heavy` requires the feature `heavy`, which `full` enables, and
/// an ordinary bench target `light`.
const FRAMES: &str = r#"[package]
name = "frames"
version = "0.1.0"
edition = "2021"

[features]
heavy = []
full = ["heavy"]

[[bench]]
name = "heavy"
harness = false
required-features = ["heavy"]

[[bench]]
name = "light"
harness = false
"#;

fn frames() -> (tempfile::TempDir, PathBuf) {
    let dir = write(&[
        ("Cargo.toml", FRAMES),
        ("src/lib.rs", ""),
        ("benches/heavy.rs", "fn main() {}"),
        ("benches/light.rs", "fn main() {}"),
    ]);
    let manifest = dir.path().join("Cargo.toml");
    (dir, manifest)
}

fn coverage(manifest: &Path, selection: Selection<'_>) -> Vec<(String, Option<Reason>)> {
    let metadata = metadata(manifest).expect("cargo metadata");
    bench_targets(&metadata, manifest, &selection)
        .into_iter()
        .map(|t| (t.name.clone(), t.left_out().map(|l| l.reason)))
        .collect()
}

fn needs(features: &[&str]) -> Option<Reason> {
    Some(Reason::NeedsFeatures {
        missing: features.iter().map(|f| f.to_string()).collect(),
    })
}

#[test]
fn a_target_whose_required_features_are_off_is_left_out_with_them() {
    let (_dir, manifest) = frames();
    assert_eq!(
        coverage(&manifest, Selection::default()),
        [
            ("heavy".to_string(), needs(&["heavy"])),
            ("light".to_string(), None)
        ]
    );
    let left = left_out(&bench_targets(
        &metadata(&manifest).unwrap(),
        &manifest,
        &Selection::default(),
    ));
    assert_eq!(left.len(), 1);
    assert_eq!(
        (left[0].name.as_str(), left[0].granularity, left[0].side),
        ("heavy", Granularity::Target, None)
    );
}

#[test]
fn the_feature_given_directly_through_another_or_all_features_builds_it() {
    let (_dir, manifest) = frames();
    for features in ["heavy", "full", "frames/heavy", "light,heavy", "x heavy"] {
        let selection = Selection {
            features: Some(features),
            ..Selection::default()
        };
        assert_eq!(
            coverage(&manifest, selection),
            [("heavy".to_string(), None), ("light".to_string(), None)],
            "--features {features}"
        );
    }
    let all = Selection {
        all_features: true,
        ..Selection::default()
    };
    assert_eq!(
        coverage(&manifest, all),
        [("heavy".to_string(), None), ("light".to_string(), None)]
    );
    // Another package's feature is not this one's.
    let other = Selection {
        features: Some("other/heavy"),
        ..Selection::default()
    };
    assert_eq!(coverage(&manifest, other)[0].1, needs(&["heavy"]));
}

#[test]
fn default_features_enable_what_they_name() {
    let manifest_text = FRAMES.replace(
        "full = [\"heavy\"]",
        "full = [\"heavy\"]\ndefault = [\"full\"]",
    );
    let dir = write(&[
        ("Cargo.toml", &manifest_text),
        ("src/lib.rs", ""),
        ("benches/heavy.rs", "fn main() {}"),
        ("benches/light.rs", "fn main() {}"),
    ]);
    let manifest = dir.path().join("Cargo.toml");
    assert_eq!(
        coverage(&manifest, Selection::default())[0],
        ("heavy".to_string(), None)
    );
}

#[test]
fn a_target_bench_does_not_name_is_excluded_by_it() {
    let (_dir, manifest) = frames();
    let benches = ["light".to_string()];
    let selection = Selection {
        benches: &benches,
        ..Selection::default()
    };
    assert_eq!(
        coverage(&manifest, selection),
        [
            (
                "heavy".to_string(),
                Some(Reason::Excluded {
                    option: "--bench".into()
                })
            ),
            ("light".to_string(), None)
        ]
    );
}

/// A virtual workspace of two members: both are selected, or the one `-p` names, or the one whose
/// manifest is given.
#[test]
fn the_packages_are_those_cargo_selects() {
    let member = |name: &str, bench: &str| {
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\nslow = []\n\n\
             [[bench]]\nname = \"{bench}\"\nharness = false\nrequired-features = [\"slow\"]\n"
        )
    };
    let (a, b) = (member("a", "a_bench"), member("b", "b_bench"));
    let dir = write(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"a\", \"b\"]\nresolver = \"2\"\n",
        ),
        ("a/Cargo.toml", &a),
        ("a/src/lib.rs", ""),
        ("a/benches/a_bench.rs", "fn main() {}"),
        ("b/Cargo.toml", &b),
        ("b/src/lib.rs", ""),
        ("b/benches/b_bench.rs", "fn main() {}"),
    ]);
    let root = dir.path().join("Cargo.toml");
    let names = |manifest: &Path, selection| {
        coverage(manifest, selection)
            .into_iter()
            .map(|(n, _)| n)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&root, Selection::default()), ["a_bench", "b_bench"]);
    let only_b = Selection {
        package: Some("b"),
        ..Selection::default()
    };
    assert_eq!(names(&root, only_b), ["b_bench"]);
    assert_eq!(
        names(&dir.path().join("a/Cargo.toml"), Selection::default()),
        ["a_bench"]
    );
    // `slow` given bare enables it in every selected package.
    let slow = Selection {
        features: Some("slow"),
        ..Selection::default()
    };
    assert!(coverage(&root, slow).iter().all(|(_, r)| r.is_none()));
}

#[test]
fn a_target_of_one_revision_is_left_out_at_the_side_that_has_it() {
    let target = |name: &str, missing: &[&str]| BenchTarget {
        name: name.into(),
        missing: missing.iter().map(|m| m.to_string()).collect(),
        excluded: false,
    };
    let base = [target("kept", &[]), target("gone", &[])];
    let head = [
        target("kept", &[]),
        target("new", &[]),
        target("new_heavy", &["heavy"]),
    ];
    let (base_only, head_only) = one_side_only(&base, &head);
    let joined = join(
        [left_out(&base), base_only].concat(),
        [left_out(&head), head_only].concat(),
    );
    let got: Vec<(&str, Option<Side>, &Reason)> = joined
        .iter()
        .map(|l| (l.name.as_str(), l.side, &l.reason))
        .collect();
    // A target of one side that is not built anyway is left out for that reason, once.
    assert_eq!(
        got,
        [
            ("gone", Some(Side::Base), &Reason::OnlyAtThisSide),
            ("new_heavy", Some(Side::Head), &needs(&["heavy"]).unwrap()),
            ("new", Some(Side::Head), &Reason::OnlyAtThisSide),
        ]
    );
}
