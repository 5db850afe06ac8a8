//! The bench targets a revision has, from `cargo metadata --no-deps` of its tree, and which of them the
//! build leaves out and why: cargo skips a target whose `required-features` are not all enabled without a
//! word, and `--bench` names the ones to build. Every bench target of the selected packages is either
//! built or listed here (`model::coverage`, `docs/usage.md` §1).
//!
//! Must not: build or run anything (only `cargo metadata`), or decide anything.

use std::collections::BTreeSet;
use std::path::Path;

use cargo_metadata::{Metadata, Package, TargetKind};

use crate::measure::settings::BuildSettings;
use crate::measure::{MeasureError, process};
use crate::model::coverage::{LeftOut, Reason};

/// One bench target of a selected package, as `Cargo.toml` declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BenchTarget {
    /// The target's name (`[[bench]] name`).
    pub name: String,
    /// Its `required-features` that the comparison's features leave disabled, as `Cargo.toml` names
    /// them; empty when cargo builds it.
    pub missing: Vec<String>,
    /// Whether `--bench` leaves it out (named others, not it).
    pub excluded: bool,
}

impl BenchTarget {
    /// Whether cargo builds it with these options.
    pub(crate) fn is_built(&self) -> bool {
        self.missing.is_empty() && !self.excluded
    }

    /// Why it is not built, when it is not: the options' exclusion first (the user chose it).
    pub(crate) fn left_out(&self) -> Option<LeftOut> {
        let reason = if self.excluded {
            Reason::Excluded {
                option: "--bench".into(),
            }
        } else if !self.missing.is_empty() {
            Reason::NeedsFeatures {
                missing: self.missing.clone(),
            }
        } else {
            return None;
        };
        Some(LeftOut::target(&self.name, None, reason))
    }
}

/// What the build's options select and enable: the part of [`BuildSettings`] that decides which bench targets
/// cargo builds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Selection<'a> {
    /// `-p/--package`.
    pub package: Option<&'a str>,
    /// `--bench`, each a target name; empty: all.
    pub benches: &'a [String],
    /// `--features`, as given to cargo (comma or space separated, `FEATURE` or `PACKAGE/FEATURE`).
    pub features: Option<&'a str>,
    /// `--all-features`.
    pub all_features: bool,
}

impl<'a> Selection<'a> {
    pub(crate) fn of(options: &BuildSettings<'a>) -> Selection<'a> {
        Selection {
            package: options.package,
            benches: options.benches,
            features: options.features,
            all_features: options.all_features,
        }
    }
}

/// `cargo metadata --no-deps` of the manifest `manifest` (a revision's tree).
pub(crate) fn metadata(manifest: &Path) -> Result<Metadata, MeasureError> {
    let mut command = crate::measure::project::metadata_command(manifest);
    let out = process::capture(&mut command)?;
    let failed = |stderr: String| MeasureError::Cargo {
        command: process::describe(&command),
        stderr,
    };
    if !out.status.success() {
        return Err(failed(out.stderr_text()));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| failed(e.to_string()))
}

/// The bench targets of the packages `selection` selects in `metadata` (the manifest at `manifest`), in
/// `cargo metadata`'s order, each with what leaves it out, if anything.
pub(crate) fn bench_targets(
    metadata: &Metadata,
    manifest: &Path,
    selection: &Selection<'_>,
) -> Vec<BenchTarget> {
    let requested = requested_features(selection.features);
    selected_packages(metadata, manifest, selection.package)
        .into_iter()
        .flat_map(|package| {
            let enabled = enabled_features(package, &requested, selection.all_features);
            package
                .targets
                .iter()
                .filter(|t| t.is_kind(TargetKind::Bench))
                .map(move |t| BenchTarget {
                    name: t.name.clone(),
                    missing: t
                        .required_features
                        .iter()
                        .filter(|f| !enabled.contains(f.as_str()))
                        .cloned()
                        .collect(),
                    excluded: !selection.benches.is_empty() && !selection.benches.contains(&t.name),
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The packages cargo builds for `manifest`: `-p`'s; else the package of `manifest` when it is a member that
/// is not the workspace's root; else the workspace's default members (the root package, or every member of
/// a virtual workspace, unless `default-members` says otherwise).
fn selected_packages<'m>(
    metadata: &'m Metadata,
    manifest: &Path,
    package: Option<&str>,
) -> Vec<&'m Package> {
    let members = metadata.workspace_packages();
    if let Some(name) = package {
        // `-p NAME`, or cargo's `NAME@VERSION` spec.
        let name = name.split('@').next().unwrap_or(name);
        return members.into_iter().filter(|p| *p.name == *name).collect();
    }
    let same = |a: &Path, b: &Path| a.canonicalize().ok() == b.canonicalize().ok() || a == b;
    let root = metadata.workspace_root.join("Cargo.toml");
    if !same(manifest, root.as_std_path()) {
        if let Some(p) = members
            .iter()
            .find(|p| same(p.manifest_path.as_std_path(), manifest))
        {
            return vec![p];
        }
    }
    if metadata.workspace_default_members.is_available() {
        return metadata.workspace_default_packages();
    }
    match metadata.root_package() {
        Some(root) => vec![root],
        None => members,
    }
}

/// `--features` as cargo splits it: by commas and spaces; `(package, feature)`, the package `None` for a
/// bare feature (one of every selected package).
fn requested_features(features: Option<&str>) -> Vec<(Option<String>, String)> {
    features
        .unwrap_or("")
        .split([',', ' '])
        .filter(|f| !f.is_empty())
        .map(|f| match f.split_once('/') {
            Some((package, feature)) => (Some(package.to_string()), feature.to_string()),
            None => (None, f.to_string()),
        })
        .collect()
}

/// The features of `package` the build enables: every one with `--all-features`; else `default` and the
/// requested ones, with every feature they enable in turn (`[features]` values naming another feature of
/// the package; `dep:` and `DEP/FEATURE` values enable no feature of the package, except that an optional
/// dependency `DEP` enabled by name is a feature of that name).
fn enabled_features(
    package: &Package,
    requested: &[(Option<String>, String)],
    all: bool,
) -> BTreeSet<String> {
    if all {
        let mut every: BTreeSet<String> = package.features.keys().cloned().collect();
        // Optional dependencies are implicit features unless a `dep:` value hides them.
        every.extend(
            package
                .dependencies
                .iter()
                .filter(|d| d.optional)
                .map(|d| d.rename.clone().unwrap_or_else(|| d.name.clone())),
        );
        return every;
    }
    let mut todo: Vec<String> = requested
        .iter()
        .filter(|(p, _)| p.as_deref().is_none_or(|p| p == *package.name))
        .map(|(_, f)| f.clone())
        .collect();
    if package.features.contains_key("default") {
        todo.push("default".into());
    }
    let mut enabled = BTreeSet::new();
    while let Some(feature) = todo.pop() {
        if !enabled.insert(feature.clone()) {
            continue;
        }
        for value in package.features.get(&feature).into_iter().flatten() {
            if value.starts_with("dep:") {
                continue;
            }
            match value.split_once('/') {
                // `DEP/FEATURE` enables the optional dependency DEP (a feature of its name); `DEP?/FEATURE`
                // does not.
                Some((dep, _)) if !dep.ends_with('?') => todo.push(dep.to_string()),
                Some(_) => {}
                None => todo.push(value.clone()),
            }
        }
    }
    enabled
}

/// The bench targets left out at one revision: each target [`BenchTarget::left_out`] names.
pub(crate) fn left_out(targets: &[BenchTarget]) -> Vec<LeftOut> {
    targets.iter().filter_map(BenchTarget::left_out).collect()
}

/// The bench targets of BASE and HEAD that the other revision does not have: each is left out at the
/// side that has it, for [`Reason::OnlyAtThisSide`]. Returns (BASE's, HEAD's).
pub(crate) fn one_side_only(
    base: &[BenchTarget],
    head: &[BenchTarget],
) -> (Vec<LeftOut>, Vec<LeftOut>) {
    let only = |these: &[BenchTarget], others: &[BenchTarget]| {
        these
            .iter()
            .filter(|t| !others.iter().any(|o| o.name == t.name))
            .filter(|t| t.is_built())
            .map(|t| LeftOut::target(&t.name, None, Reason::OnlyAtThisSide))
            .collect()
    };
    (only(base, head), only(head, base))
}

#[cfg(test)]
mod tests;
