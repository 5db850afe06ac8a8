//! Linking each bench executable of a revision in several section orders, so that the runs sample the layout
//! luck of the code instead of inheriting the one layout of the binary as built (`docs/replication.md` §4:
//! a real change also moves code, and the layout effect of two particular binaries would be confounded with
//! it; Curtsinger & Berger, Stabilizer, ASPLOS 2013).
//!
//! How: one `cargo rustc --profile bench --bench NAME -- -C save-temps --print link-args` per bench target
//! keeps the bench crate's object files and prints the linker's command line (rustc invokes `cc` with
//! `-fuse-ld=lld`, rust-lld being the default linker of x86_64-unknown-linux-gnu since Rust 1.90). That line
//! is then run again L - 1 times with `-Wl,--shuffle-sections=*=SEED` added and its `-o` pointed into the
//! revision's `bin/` directory: only the link repeats, nothing is compiled again. Layout 0 stays the
//! executable as built. The kept temporaries are removed afterwards, and so is what that one `cargo rustc`
//! added to the cargo target directory ([`CargoOutputs`]: an executable no build reuses). Without shuffling the same line links
//! the executable as built byte for byte (checked with rustc 1.95), so the layouts differ by section order
//! only. A worktree's files are touched first: the worktrees share one cargo target directory, whose
//! freshness cargo judges by modification time, and the other revision was built last.
//!
//! Cost, measured on the e2e fixture crate (one criterion bench target, 2.9 MB executable; rustc 1.95,
//! 2 shared cores): the `cargo rustc` step 5-6 s per revision and bench target (it compiles the package's
//! library and the bench crate again, never the dependencies; the incremental `cargo bench --no-run` of a
//! revision took 3-5 s); each further layout 0.08-0.17 s of linking. Recompiling the bench crate per layout
//! (`-C link-arg=` through `cargo rustc`) would cost those seconds per layout instead. A/A on the fixture
//! (`HEAD..HEAD --runs 12 --seed 7`, default times): 70 s with `--layouts 4` against 56 s with `fixed`;
//! both verdicts "unchanged". On that loaded machine (within-process noise ~20 %, between-process 10-18 %
//! of the median) the between-layout component came out 0-7.7 %: lost in the process noise there, which is
//! no evidence that it is small on a quiet machine. So the default is one fresh layout per run (L = runs, up
//! to [`DEFAULT_MAX_LAYOUTS`](crate::measure::settings::DEFAULT_MAX_LAYOUTS)): the cost is seconds per revision, each
//! run then samples both a process and a layout, and runs stay independent observations.
//!
//! Limits: only lld shuffles sections. When the link line does not use lld (a `-C linker=` or
//! `-C link-arg=-fuse-ld=` of the user's, another target), the revision keeps its one layout and a note
//! says so. Each layout is a full copy of the executable on disk while the runs go on; [`Relinked`] removes
//! them when the runs are done, so that `bin/` then holds the executable as built only, one per bench target
//! and revision. A default comparison links 20 layouts per revision: on a 5-benchmark criterion crate (one
//! 2.9 MB bench executable, rustc 1.95) `target/speedup` kept 274 MB after it, 115 MB of them the 40
//! executables in `bin/`. With the relinks' own cargo units removed too ([`CargoOutputs`]), what stays is the
//! shared build and one executable per bench target and revision: after five comparisons of seahash
//! 4.1.0, 210.9 MB against 200.4 MB for the crate's own build and 5.2 MB per executable
//! (`docs/calibration.md` §2). Layouts are relinked from the objects the one `cargo rustc` compiled, which are the same
//! code as the executable as built.
//!
//! Must not: recompile dependencies, touch the user's working tree, or write outside `<target>/speedup/`
//! and the cargo target directory the revision was built with.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::build::BenchBinary;
use crate::measure::progress::Progress;
use crate::measure::project::{Project, cargo};
use crate::measure::settings::{BuildSettings, LayoutSettings};
use crate::measure::{MeasureError, process};

/// The most layouts a bench executable gets: their directories are numbered with three digits.
pub(crate) const MAX_LAYOUTS: u32 = 999;

/// What relinking one revision found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RelinkOutcome {
    /// One layout was asked for: nothing was done.
    Fixed,
    /// Every bench executable has `layouts` layouts, of which `distinct` (over all targets) differ.
    Linked {
        layouts: usize,
        executables: usize,
        distinct: usize,
    },
    /// The linker cannot shuffle sections: the revision keeps its one layout.
    CannotShuffle { linker: String },
}

/// Adds `options.layouts - 1` relinked layouts to each of `binaries`, the bench executables of the revision
/// `label` as [`build::build`](super::build::build) left them (all from one tree). The new executables go
/// beside the one as built (`<keep>/<i>/<k>/NAME`, equal in length for every revision and layout). A note on
/// `progress` says what was done.
pub(crate) fn add_layouts(
    project: &Project,
    build: &BuildSettings<'_>,
    options: LayoutSettings,
    progress: &Progress,
    label: &str,
    binaries: &mut [BenchBinary],
) -> Result<RelinkOutcome, MeasureError> {
    let Some(first) = binaries.first() else {
        return Ok(RelinkOutcome::Fixed);
    };
    if options.layouts <= 1 {
        return Ok(RelinkOutcome::Fixed);
    }
    progress.building(&format!("{label}: linking {} layouts", options.layouts));
    let manifest = first.manifest.clone();
    let tree = manifest
        .ancestors()
        .nth(project.manifest.components().count())
        .unwrap_or(&manifest)
        .to_path_buf();
    if tree != project.root {
        touch_tree(&tree)?;
    }
    for binary in binaries.iter_mut() {
        // The user's working tree is never touched: its local packages are cleaned instead when another
        // tree was compiled here since (the other side, built after it), or the relink would link that
        // tree's library into this side's layouts.
        if tree == project.root {
            super::build::forget_local_builds(&tree, project, label, &binary.cargo_target)?;
        }
        let before = CargoOutputs::list(&binary.cargo_target);
        super::build::compiling(&binary.cargo_target);
        let line = match link_line(label, build, binary) {
            Ok(line) => line,
            Err(error) => {
                before.remove_new(None);
                return Err(error);
            }
        };
        super::build::compiled(&binary.cargo_target, &tree);
        let Some(shuffle) = shuffle_flag(&line) else {
            before.remove_new(Some(&line));
            binaries.iter_mut().for_each(|b| b.layouts.truncate(1));
            let outcome = RelinkOutcome::CannotShuffle {
                linker: line.program.clone(),
            };
            tell(progress, label, &outcome);
            return Ok(outcome);
        };
        let relinked = relink(&line, &shuffle, label, options, binary);
        remove_temporaries(&line);
        before.remove_new(Some(&line));
        relinked?;
    }
    let outcome = RelinkOutcome::Linked {
        layouts: options.layouts as usize,
        executables: binaries.iter().map(|b| b.layouts.len()).sum(),
        distinct: distinct(binaries)?,
    };
    tell(progress, label, &outcome);
    Ok(outcome)
}

fn tell(progress: &Progress, label: &str, outcome: &RelinkOutcome) {
    match outcome {
        RelinkOutcome::Fixed => {}
        RelinkOutcome::Linked {
            layouts,
            executables,
            distinct,
        } => progress.note(&format!(
            "{label}: each bench executable linked in {layouts} layouts (lld --shuffle-sections), \
             {distinct} of {executables} executables distinct"
        )),
        RelinkOutcome::CannotShuffle { linker } => progress.note(&format!(
            "note: {label}: the linker (`{linker}`, not lld) cannot shuffle sections; one layout per \
             revision, so the layout luck of the two executables is part of the difference"
        )),
    }
}

/// The linker's command line as rustc prints it with `--print link-args`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LinkLine {
    pub env: Vec<(String, String)>,
    pub program: String,
    pub args: Vec<String>,
}

/// Parses rustc's `--print link-args` line: `KEY="value"` assignments, then the program and its arguments,
/// each a Rust string literal (`"..."` with `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\'` and `\u{..}` escapes).
pub(crate) fn parse_link_line(text: &str) -> Option<LinkLine> {
    let mut env = Vec::new();
    let mut words = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (key, quoted) = match rest.find('"') {
            Some(0) => ("", rest),
            Some(i) if rest[..i].ends_with('=') && !rest[..i].contains(char::is_whitespace) => {
                (&rest[..i - 1], &rest[i..])
            }
            _ => return None,
        };
        let (value, after) = string_literal(quoted)?;
        if key.is_empty() {
            words.push(value);
        } else if words.is_empty() {
            env.push((key.to_string(), value));
        } else {
            return None;
        }
        rest = after.trim_start();
    }
    let mut words = words.into_iter();
    Some(LinkLine {
        env,
        program: words.next()?,
        args: words.collect(),
    })
}

/// The string literal at the start of `text` (which starts with `"`), and what follows it.
fn string_literal(text: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &text[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                'u' => {
                    let mut hex = String::new();
                    for (_, h) in chars.by_ref() {
                        match h {
                            '{' => {}
                            '}' => break,
                            h => hex.push(h),
                        }
                    }
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// How to ask this link line's linker to shuffle sections (`{}` stands for the seed): `-Wl,` through a C
/// compiler driver told to use lld (`-fuse-ld=lld`, or `--ld-path=` to an lld), directly when the program is
/// lld itself; `None` when the linker is not lld.
pub(crate) fn shuffle_flag(line: &LinkLine) -> Option<String> {
    let is_lld = |path: &str| {
        Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().contains("lld"))
            .unwrap_or(false)
    };
    // The last choice counts: a user's `-C link-arg=-fuse-ld=bfd` comes after rustc's own `-fuse-ld=lld`.
    let driver_uses_lld = line
        .args
        .iter()
        .rev()
        .find_map(|a| {
            a.strip_prefix("-fuse-ld=")
                .or_else(|| a.strip_prefix("--ld-path="))
        })
        .is_some_and(is_lld);
    if driver_uses_lld {
        Some("-Wl,--shuffle-sections=*={}".to_string())
    } else if is_lld(&line.program) {
        Some("--shuffle-sections=*={}".to_string())
    } else {
        None
    }
}

/// The arguments of `line` linking into `output` with sections shuffled by `seed` (`flag` from
/// [`shuffle_flag`]); `None` when the line has no `-o`.
pub(crate) fn shuffled_args(
    line: &LinkLine,
    flag: &str,
    seed: u32,
    output: &Path,
) -> Option<Vec<String>> {
    let at = line.args.iter().position(|a| a == "-o")?;
    let mut args = line.args.clone();
    *args.get_mut(at + 1)? = output.to_string_lossy().into_owned();
    args.push(flag.replace("{}", &seed.to_string()));
    Some(args)
}

/// lld's seed of layout `k` (1..) for the run seed `seed`: the same layouts again with the same `--seed`;
/// never 0, which lld takes as "a random seed".
pub(crate) fn layout_seed(seed: u64, k: u32) -> u32 {
    let mixed = seed
        .wrapping_add(u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .rotate_left(17);
    (mixed % u64::from(u32::MAX - 1)) as u32 + 1
}

/// Mixes the side into the layout seeds, so that BASE and HEAD sample their layouts independently even when
/// they link the same objects (an A/A comparison with `--run-identical`): equal seeds would give both
/// sides the same layout in each block, and the comparison would not see the layout's share of the noise.
fn side_salt(label: &str) -> u64 {
    label.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The relinked layouts of some bench executables, removed when this is dropped: create it before
/// [`add_layouts`] and keep it until the runs are done, whether they end, fail or are interrupted. The
/// executable as built (layout 0, the one the identical-executables check compared) stays, one per bench
/// target and revision, until the next build of that revision's role replaces `bin/<role>/` whole. Removal
/// is best effort: what a killed run leaves goes the same way.
#[derive(Debug, Default)]
pub(crate) struct Relinked {
    /// `<keep>/<i>`: the directory of each executable's layouts.
    dirs: Vec<PathBuf>,
}

impl Relinked {
    /// The layouts that will be linked beside each of `binaries` (`<keep>/<i>/<k>/`, `k` > 0).
    pub(crate) fn of<'a>(binaries: impl IntoIterator<Item = &'a BenchBinary>) -> Relinked {
        let dirs = binaries
            .into_iter()
            .filter_map(|b| b.layouts.first())
            .filter_map(|as_built| Some(as_built.parent()?.parent()?.to_path_buf()))
            .collect();
        Relinked { dirs }
    }
}

impl Drop for Relinked {
    fn drop(&mut self) {
        for dir in &self.dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let relinked = entry.file_name().to_str().is_some_and(|n| {
                    n.len() == 3 && n != "000" && n.bytes().all(|b| b.is_ascii_digit())
                });
                if relinked {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
    }
}

/// The relinked executable of layout `k`: `<keep>/<i>/<k>/NAME` beside the one as built.
pub(crate) fn layout_path(as_built: &Path, k: u32) -> PathBuf {
    let name = as_built.file_name().unwrap_or_default();
    let target_dir = as_built
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    target_dir.join(format!("{k:03}")).join(name)
}

/// Compiles `binary`'s bench crate once more, keeping its objects, and returns rustc's link line.
fn link_line(
    label: &str,
    options: &BuildSettings<'_>,
    binary: &BenchBinary,
) -> Result<LinkLine, MeasureError> {
    let mut command = cargo();
    command
        .args(["rustc", "--profile", "bench", "--bench", &binary.target])
        .arg("--manifest-path")
        .arg(&binary.manifest)
        .current_dir(&binary.package_dir)
        .env("CARGO_TARGET_DIR", &binary.cargo_target);
    if let Some(p) = options.package {
        command.args(["--package", p]);
    }
    if let Some(f) = options.features {
        command.args(["--features", f]);
    }
    if options.all_features {
        command.arg("--all-features");
    }
    // A cfg that no code reads and that differs at every call: cargo takes rustc's extra arguments into
    // the bench crate's freshness, so this one crate is compiled again (nothing else), and rustc prints its
    // link line even when the same arguments were given before (a second `record` of the working tree).
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    command.args(["--", "-C", "save-temps", "--print", "link-args", "--cfg"]);
    command.arg(format!("cargo_speedup_relink=\"{nonce}\""));
    let failed = |reason: String, command: &Command| MeasureError::Relink {
        revision: label.to_string(),
        target: binary.target.clone(),
        command: process::describe(command),
        reason,
    };
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(failed(out.stderr_text(), &command));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(parse_link_line)
        .find(|l| l.args.iter().any(|a| a == "-o"))
        .ok_or_else(|| failed("rustc printed no link line".into(), &command))
}

/// Links layouts 1.. of `binary` from `line`.
fn relink(
    line: &LinkLine,
    flag: &str,
    label: &str,
    options: LayoutSettings,
    binary: &mut BenchBinary,
) -> Result<(), MeasureError> {
    binary.layouts.truncate(1);
    let as_built = binary.layouts[0].clone();
    for k in 1..options.layouts {
        let output = layout_path(&as_built, k);
        let io = |source| MeasureError::Io {
            what: "making a directory for a relinked layout",
            path: output.clone(),
            error: source,
        };
        std::fs::create_dir_all(output.parent().unwrap_or(Path::new("."))).map_err(io)?;
        let seed = layout_seed(options.seed ^ side_salt(label), k);
        let args = shuffled_args(line, flag, seed, &output).unwrap_or_default();
        let mut command = Command::new(&line.program);
        command
            .args(&args)
            .envs(line.env.iter().map(|(k, v)| (k, v)));
        let out = process::capture(&mut command)?;
        if !out.status.success() {
            return Err(MeasureError::Relink {
                revision: label.to_string(),
                target: binary.target.clone(),
                command: process::describe(&command),
                reason: out.stderr_text(),
            });
        }
        binary.layouts.push(output);
    }
    Ok(())
}

/// Removes what `-C save-temps` kept: the bench crate's objects and bitcode beside its output, and rustc's
/// temporary directory (the one holding `symbols.o`).
fn remove_temporaries(line: &LinkLine) {
    let Some(output) = line
        .args
        .iter()
        .position(|a| a == "-o")
        .and_then(|i| line.args.get(i + 1))
        .map(PathBuf::from)
    else {
        return;
    };
    let (Some(dir), Some(stem)) = (output.parent(), output.file_name()) else {
        return;
    };
    let prefix = format!("{}.", stem.to_string_lossy());
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix) && (name.ends_with(".o") || name.ends_with(".bc")) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    for arg in &line.args {
        let path = Path::new(arg);
        let temporary = path.parent().filter(|p| {
            p.parent() == Some(dir)
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("rustc"))
        });
        if let Some(temporary) = temporary {
            let _ = std::fs::remove_dir_all(temporary);
        }
    }
}

/// What the cargo target directory of a revision held before the one `cargo rustc` of [`link_line`], so
/// that what that call alone added can go once the layouts are linked. Its bench crate is compiled under a
/// nonce (`--cfg cargo_speedup_relink=..`), which cargo hashes into a new unit: a full executable in
/// `release/deps/` (`NAME-HASH`, its `.d` file), a `release/.fingerprint/PACKAGE-HASH/` directory, and,
/// with `-C save-temps`, rustc's `rmeta*` temporary directories. No later build can reuse that unit, so
/// left there, every revision relinked would add one more executable to `target/speedup` (5 MB each for
/// seahash's bench target, 43 MB over five comparisons). The package's library, rebuilt by the same call
/// under its usual hash, is not new and stays.
struct CargoOutputs {
    deps: PathBuf,
    fingerprints: PathBuf,
    before: (Vec<std::ffi::OsString>, Vec<std::ffi::OsString>),
}

impl CargoOutputs {
    /// The entries of `<cargo_target>/release/deps` and `.../.fingerprint` (the bench profile's directory).
    fn list(cargo_target: &Path) -> CargoOutputs {
        let release = cargo_target.join("release");
        let deps = release.join("deps");
        let fingerprints = release.join(".fingerprint");
        let before = (names(&deps), names(&fingerprints));
        CargoOutputs {
            deps,
            fingerprints,
            before,
        }
    }

    /// Removes, best effort, what appeared since [`list`](Self::list) and belongs to the relink's unit: in
    /// `deps/`, the entries named with the hash of `line`'s output (`-o .../NAME-HASH`) and rustc's
    /// temporary directories (`rmeta*`, `rustc*`); in `.fingerprint/`, the directories ending `-HASH`.
    /// Without a link line (the call failed), only the temporary directories.
    fn remove_new(&self, line: Option<&LinkLine>) {
        let hash = line.and_then(output_hash);
        let ours = |name: &str| hash.as_deref().is_some_and(|h| name.contains(h));
        for entry in new_entries(&self.deps, &self.before.0) {
            let name = entry.file_name().unwrap_or_default().to_string_lossy();
            let temporary =
                (name.starts_with("rmeta") || name.starts_with("rustc")) && entry.is_dir();
            if temporary {
                let _ = std::fs::remove_dir_all(&entry);
            } else if ours(&name) {
                let _ = std::fs::remove_file(&entry);
            }
        }
        for entry in new_entries(&self.fingerprints, &self.before.1) {
            let name = entry.file_name().unwrap_or_default().to_string_lossy();
            if ours(&name) && entry.is_dir() {
                let _ = std::fs::remove_dir_all(&entry);
            }
        }
    }
}

/// The names in `dir`, sorted (none when it cannot be read).
fn names(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// The paths in `dir` whose names are not in `before` (sorted).
fn new_entries(dir: &Path, before: &[std::ffi::OsString]) -> Vec<PathBuf> {
    names(dir)
        .into_iter()
        .filter(|n| before.binary_search(n).is_err())
        .map(|n| dir.join(n))
        .collect()
}

/// The `-HASH` suffix of the link line's output (`-o .../deps/bench-1a2b3c4d5e6f7a8b`), dash included, when
/// it has one of 16 hexadecimal digits as cargo names its units' outputs.
fn output_hash(line: &LinkLine) -> Option<String> {
    let output = line
        .args
        .iter()
        .position(|a| a == "-o")
        .and_then(|i| line.args.get(i + 1))?;
    let name = Path::new(output).file_name()?.to_str()?;
    let (_, hash) = name.rsplit_once('-')?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())).then(|| format!("-{hash}"))
}

/// Sets the modification time of every file of the worktree `tree` (but `.git`) to now, so that cargo
/// compiles this revision's packages again rather than take the other revision's, built last, as fresh.
fn touch_tree(tree: &Path) -> Result<(), MeasureError> {
    let now = std::time::SystemTime::now();
    let io = |path: &Path| MeasureError::io("refreshing a worktree's files", path);
    let mut stack = vec![tree.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(io(&dir))? {
            let entry = entry.map_err(io(&dir))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(io(&path))?;
            if entry.file_name() == ".git" || kind.is_symlink() {
                continue;
            }
            if kind.is_dir() {
                stack.push(path);
            } else {
                std::fs::File::options()
                    .write(true)
                    .open(&path)
                    .and_then(|f| f.set_modified(now))
                    .map_err(io(&path))?;
            }
        }
    }
    Ok(())
}

/// How many of the executables of `binaries` differ from each other (by content).
fn distinct(binaries: &[BenchBinary]) -> Result<usize, MeasureError> {
    let mut seen: Vec<(u64, &Path)> = Vec::new();
    let mut count = 0;
    for path in binaries.iter().flat_map(|b| &b.layouts) {
        let bytes = std::fs::read(path).map_err(|source| MeasureError::Io {
            what: "reading a relinked layout",
            path: path.clone(),
            error: source,
        })?;
        let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        if !seen.iter().any(|(h, _)| *h == hash) {
            count += 1;
        }
        seen.push((hash, path));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"LC_ALL="C" PATH="/r/bin:/usr/bin" VSLANG="1033" "cc" "-m64" "/t/release/deps/rustcj2V1Cw/symbols.o" "/t/release/deps/work-34a6.work.3c13-cgu.00.rcgu.o" "-B/r/gcc-ld" "-fuse-ld=lld" "-o" "/t/release/deps/work-34a6" "-Wl,--gc-sections" "-nodefaultlibs""#;

    #[test]
    fn rustcs_link_line_parses_into_env_program_and_args() {
        let line = parse_link_line(LINE).unwrap();
        assert_eq!(
            line.env,
            [
                ("LC_ALL".to_string(), "C".to_string()),
                ("PATH".into(), "/r/bin:/usr/bin".into()),
                ("VSLANG".into(), "1033".into())
            ]
        );
        assert_eq!(line.program, "cc");
        assert_eq!(line.args.len(), 9);
        assert_eq!(line.args[5], "-o");
        assert_eq!(line.args[7], "-Wl,--gc-sections");
    }

    #[test]
    fn escapes_inside_words_are_undone() {
        let line = parse_link_line(r#""cc" "a \"b\" c" "C:\\x" "\u{e9}""#).unwrap();
        assert_eq!(line.args, ["a \"b\" c", "C:\\x", "é"]);
        assert!(parse_link_line("not a link line").is_none());
        assert!(parse_link_line(r#""cc" "unterminated"#).is_none());
        assert!(parse_link_line("").is_none());
    }

    #[test]
    fn only_lld_is_asked_to_shuffle() {
        let line = parse_link_line(LINE).unwrap();
        assert_eq!(
            shuffle_flag(&line).as_deref(),
            Some("-Wl,--shuffle-sections=*={}")
        );
        let direct = parse_link_line(r#""/r/bin/rust-lld" "-flavor" "gnu" "-o" "x""#).unwrap();
        assert_eq!(
            shuffle_flag(&direct).as_deref(),
            Some("--shuffle-sections=*={}")
        );
        let bfd = parse_link_line(r#""cc" "-m64" "-o" "x""#).unwrap();
        assert_eq!(shuffle_flag(&bfd), None);
        let mold = parse_link_line(r#""clang" "-fuse-ld=mold" "-o" "x""#).unwrap();
        assert_eq!(shuffle_flag(&mold), None);
        let overridden = parse_link_line(r#""cc" "-fuse-ld=lld" "-o" "x" "-fuse-ld=bfd""#).unwrap();
        assert_eq!(shuffle_flag(&overridden), None);
    }

    #[test]
    fn the_relink_changes_the_output_and_adds_the_seed() {
        let line = parse_link_line(LINE).unwrap();
        let flag = shuffle_flag(&line).unwrap();
        let args = shuffled_args(&line, &flag, 42, Path::new("/k/0/001/work")).unwrap();
        assert_eq!(args.len(), line.args.len() + 1);
        assert_eq!(args[6], "/k/0/001/work");
        assert_eq!(args.last().unwrap(), "-Wl,--shuffle-sections=*=42");
        let no_output = parse_link_line(r#""cc" "a.o""#).unwrap();
        assert!(shuffled_args(&no_output, &flag, 1, Path::new("x")).is_none());
    }

    #[test]
    fn layout_seeds_repeat_with_the_run_seed_and_are_never_zero() {
        assert_eq!(layout_seed(7, 3), layout_seed(7, 3));
        let seeds: Vec<u32> = (1..50).map(|k| layout_seed(7, k)).collect();
        assert!(seeds.iter().all(|&s| s != 0));
        let mut unique = seeds.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seeds.len());
        assert!((0..1000).all(|s| layout_seed(s, 1) != 0));
    }

    #[test]
    fn relinked_layouts_are_removed_when_their_runs_are_done_and_the_executable_as_built_stays() {
        let keep = tempfile::tempdir().unwrap();
        let binary = |i: usize| {
            let as_built = keep.path().join(format!("{i}/000/work-1a"));
            let mut layouts = vec![as_built.clone()];
            layouts.extend((1..4).map(|k| layout_path(&as_built, k)));
            for path in &layouts {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, format!("{}", path.display())).unwrap();
            }
            BenchBinary {
                target: format!("t{i}"),
                layouts,
                package_dir: keep.path().into(),
                manifest: keep.path().join("Cargo.toml"),
                cargo_target: keep.path().join("target"),
                harness: crate::measure::harness::Harness::Criterion,
                whole_seconds: None,
            }
        };
        let binaries = [binary(0), binary(1)];
        let relinked = Relinked::of(&binaries);
        assert!(binaries.iter().flat_map(|b| &b.layouts).all(|p| p.exists()));
        drop(relinked);
        let left = |i: usize| {
            let mut names: Vec<String> = std::fs::read_dir(keep.path().join(i.to_string()))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(left(0), ["000"]);
        assert_eq!(left(1), ["000"]);
        for b in &binaries {
            assert_eq!(
                std::fs::read_to_string(&b.layouts[0]).unwrap(),
                b.layouts[0].display().to_string()
            );
        }
        // Nothing relinked, nothing to remove: dropping it again is harmless.
        drop(Relinked::of(&binaries));
        assert_eq!(left(0), ["000"]);
    }

    #[test]
    fn what_the_relinks_cargo_rustc_added_goes_and_everything_else_stays() {
        let target = tempfile::tempdir().unwrap();
        let release = target.path().join("release");
        let deps = release.join("deps");
        let fingerprints = release.join(".fingerprint");
        let touch = |path: PathBuf| {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        };
        // The revision's build: its bench executable, the library, their fingerprints.
        touch(deps.join("work-00000000000000aa"));
        touch(deps.join("libdemo-00000000000000bb.rlib"));
        touch(fingerprints.join("demo-00000000000000aa/bench"));
        touch(fingerprints.join("demo-00000000000000bb/lib"));
        let before = CargoOutputs::list(target.path());
        // The relink's `cargo rustc`: the nonce unit, rustc's kept temporary directories, the library
        // rebuilt under its old name, and one new unrelated file.
        touch(deps.join("work-1a2b3c4d5e6f7a8b"));
        touch(deps.join("work-1a2b3c4d5e6f7a8b.d"));
        touch(deps.join("rmetaAbC123/lib.rmeta"));
        touch(deps.join("rustcXyZ987/symbols.o"));
        touch(deps.join("libdemo-00000000000000bb.rlib"));
        touch(deps.join("libother-00000000000000cc.rlib"));
        touch(fingerprints.join("demo-1a2b3c4d5e6f7a8b/bench"));
        let line = LinkLine {
            env: vec![],
            program: "cc".into(),
            args: vec![
                "-o".into(),
                deps.join("work-1a2b3c4d5e6f7a8b").display().to_string(),
            ],
        };
        before.remove_new(Some(&line));
        assert_eq!(
            names(&deps),
            [
                "libdemo-00000000000000bb.rlib",
                "libother-00000000000000cc.rlib",
                "work-00000000000000aa"
            ]
        );
        assert_eq!(
            names(&fingerprints),
            ["demo-00000000000000aa", "demo-00000000000000bb"]
        );

        // A failed call (no link line): its temporary directories go, nothing else is guessed at.
        let before = CargoOutputs::list(target.path());
        touch(deps.join("rmetaQrS456/lib.rmeta"));
        touch(deps.join("work-9999999999999999"));
        before.remove_new(None);
        assert!(!deps.join("rmetaQrS456").exists());
        assert!(deps.join("work-9999999999999999").exists());
    }

    #[test]
    fn only_a_cargo_hash_names_the_units_output() {
        let line = |output: &str| LinkLine {
            env: vec![],
            program: "cc".into(),
            args: vec!["a.o".into(), "-o".into(), output.into(), "-lc".into()],
        };
        assert_eq!(
            output_hash(&line("/t/release/deps/bench-071ef5c4f568374f")).as_deref(),
            Some("-071ef5c4f568374f")
        );
        assert_eq!(output_hash(&line("/t/release/deps/bench")), None);
        assert_eq!(output_hash(&line("/t/release/deps/my-bench")), None);
        assert_eq!(
            output_hash(&line("/t/release/deps/bench-071ef5c4f568374g")),
            None
        );
    }

    #[test]
    fn layouts_sit_beside_the_executable_as_built_at_paths_of_equal_length() {
        let as_built = Path::new("/t/speedup/bin/base/0/000/work-1a");
        let one = layout_path(as_built, 1);
        assert_eq!(one, Path::new("/t/speedup/bin/base/0/001/work-1a"));
        let head = layout_path(Path::new("/t/speedup/bin/head/0/000/work-1a"), 12);
        assert_eq!(one.as_os_str().len(), as_built.as_os_str().len());
        assert_eq!(one.as_os_str().len(), head.as_os_str().len());
    }
}
