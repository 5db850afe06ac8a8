//! Where commands write: every output path is checked before anything is read or run, so that no report
//! replaces an input or another report, and each is written whole or not at all; and how an error reaches
//! standard error.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::atomic_write::AtomicWriteError;

use crate::cli::RunArgs;

/// One place a command writes: the flag that names it, the path as the user gave it (`-` for standard
/// output), and a value of the flag to suggest instead.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Output<'a> {
    /// The flag that names the path, e.g. `--json`.
    pub flag: &'static str,
    /// The path as the user gave it; `-` is standard output.
    pub path: &'a Path,
    /// A value of the flag to suggest instead when the path is refused.
    pub example: &'static str,
}

/// What a command reads, which its outputs must leave alone.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    /// A file, named as the user gave it.
    File(PathBuf),
    /// A directory whose files are read (a criterion tree): no output may go inside it.
    Tree(PathBuf),
}

/// The manifest a measuring command finds the benchmarks through (`--manifest-path`, else `Cargo.toml`),
/// which no report may replace.
pub(crate) fn manifest(run: &RunArgs) -> Input {
    Input::File(
        run.manifest_path
            .clone()
            .unwrap_or_else(|| "Cargo.toml".into()),
    )
}

/// `-`: standard output, not a file of that name.
pub(crate) fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// Refuses, before anything is read or run, outputs that would destroy what the command reads or writes: a
/// file output that is an input file (through a link, `..` or a hard link too), lies inside an input
/// directory, or is another output; and two outputs to standard output. Each file output must also pass
/// [`check_output_path`].
pub(crate) fn check_outputs(outputs: &[Output], inputs: &[Input]) -> Result<()> {
    let (to_stdout, to_files): (Vec<&Output>, Vec<&Output>) =
        outputs.iter().partition(|o| is_stdout(o.path));
    if let [first, second, ..] = to_stdout[..] {
        bail!(
            "`{} -` and `{} -` both write to standard output\nhint: send one of them to a file, e.g. `{} {}`",
            first.flag,
            second.flag,
            second.flag,
            second.example
        );
    }
    for (i, output) in to_files.iter().enumerate() {
        check_output_path(output.path)?;
        for input in inputs {
            check_clear_of(output, input)?;
        }
        if let Some(earlier) = to_files[..i]
            .iter()
            .find(|o| same_file(o.path, output.path))
        {
            bail!(
                "refusing to write `{}` and `{}` to the same file `{}`\nhint: give each its own file, e.g. `{} {}`",
                earlier.flag,
                output.flag,
                output.path.display(),
                output.flag,
                output.example
            );
        }
    }
    Ok(())
}

/// Refuses `output` when it is the input file or lies inside the input directory.
fn check_clear_of(output: &Output, input: &Input) -> Result<()> {
    let hint = format!(
        "hint: write to a file that is not read, e.g. `{} {}`",
        output.flag, output.example
    );
    match input {
        Input::File(file) if same_file(output.path, file) => {
            let through = if output.path == file.as_path() {
                String::new()
            } else {
                format!(" (the output `{}` is that file)", output.path.display())
            };
            bail!(
                "refusing to overwrite input `{}`{through}\n{hint}",
                file.display()
            );
        }
        Input::Tree(dir) if inside(output.path, dir) => bail!(
            "refusing to write `{} {}` inside the directory `{}`, which is read\n{hint}",
            output.flag,
            output.path.display(),
            dir.display()
        ),
        _ => Ok(()),
    }
}

/// Where `path` is or would be created: its canonical path, else its directory's canonical path and its name.
fn resolve(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok().or_else(|| {
        let dir = std::fs::canonicalize(parent_dir(path)).ok()?;
        Some(dir.join(path.file_name()?))
    })
}

/// Whether writing to `output` would write to `other`: the same file (on Unix, the same device and inode, so
/// that hard links count), or the same place. Devices and pipes (`/dev/null`) can take any number of writers.
fn same_file(output: &Path, other: &Path) -> bool {
    match (std::fs::metadata(output), std::fs::metadata(other)) {
        (Ok(meta), _) if !meta.is_file() => false,
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        _ => resolve(output).is_some_and(|place| resolve(other) == Some(place)),
    }
}

/// Whether `path` is or would be created inside `dir`.
fn inside(path: &Path, dir: &Path) -> bool {
    match (resolve(path), std::fs::canonicalize(dir)) {
        (Some(place), Ok(dir)) => place.starts_with(dir),
        _ => false,
    }
}

/// Writes `bytes` to standard output for `None` or `-`, else to the file, atomically.
pub(crate) fn write_to(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match path.filter(|p| !is_stdout(p)) {
        Some(path) => write_atomically(path, bytes),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(bytes).and_then(|()| out.flush()) {
                // The reader stopped early (`| head`): it has what it wanted.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.context("writing to stdout"),
            }
        }
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory, flushed then renamed
/// (`crate::atomic_write`), so that nothing is half written.
///
/// A path that already exists and is not a regular file (`/dev/null`, `/dev/stdout`, a named pipe) is written
/// in place: renaming over it would replace the device or pipe with a file. A symbolic link to a file is
/// followed, so the link stays and its target gets the report.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    check_output_path(path)?;
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)
                .and_then(|mut file| file.write_all(bytes))
                .with_context(cannot);
        }
        _ => {}
    }
    // A link to a file: write the file it points to. A dangling link is replaced like any missing path.
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = parent_dir(&target);
    crate::atomic_write::write_atomically(dir, &target, bytes, new_file_permissions(&target))
        .map_err(|e| match e {
            AtomicWriteError::Create(e) => anyhow::anyhow!(
                "cannot write {}: the directory {} is not writable ({})",
                path.display(),
                dir.display(),
                e.raw_os_error().map_or_else(
                    || e.kind().to_string(),
                    |code| { std::io::Error::from_raw_os_error(code).to_string() }
                )
            ),
            AtomicWriteError::Write(e) => anyhow::anyhow!("cannot write {}: {e}", path.display()),
        })
}

/// The directory a file at `path` goes into (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Refuses an output path that cannot become a file: a directory, or a file in a directory that does not
/// exist. Commands that measure call it before minutes of building and running, not after.
pub(super) fn check_output_path(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!(
            "cannot write {}: it is a directory\nhint: give a file name, e.g. {}",
            path.display(),
            path.join("report").display()
        );
    }
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = parent_dir(&target);
    if !dir.is_dir() {
        bail!(
            "cannot write {}: the directory {} does not exist\nhint: create it first, or choose another path",
            path.display(),
            dir.display()
        );
    }
    Ok(())
}

/// The permissions of a report file: those of the file it replaces, else (on Unix) read-write for everyone
/// the umask allows, as for any file a program creates, not the owner-only mode of a temporary file.
fn new_file_permissions(target: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(target) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Writes `error` on standard error as `error: ...`, each of its lines through the terminal rule
/// (`crate::inert::terminal`): an error may quote a benchmark name, a file name or what a build
/// printed, none of which may act on the terminal or the CI log reading it.
pub(crate) fn print_error(error: &anyhow::Error) {
    let text = format!("{error:#}");
    let mut stderr = std::io::stderr().lock();
    for (i, line) in text.trim_end_matches('\n').split('\n').enumerate() {
        let lead = if i == 0 { "error: " } else { "" };
        let _ = writeln!(stderr, "{lead}{}", crate::inert::terminal(line));
    }
}
