//! Running one child process with its output captured, stoppable by Ctrl-C: the child is polled rather than
//! waited on, so an interrupt kills it promptly. Output is kept to be shown only when the child fails.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::Duration;

use super::{MeasureError, interrupt};

/// What a finished child left.
#[derive(Debug)]
pub(super) struct Captured {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Captured {
    /// stderr as text, trimmed, for error messages.
    pub(super) fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).trim_end().to_string()
    }
}

/// The command line as a person would type it, for messages.
/// How many lines of a failed child's output a message quotes.
pub(super) const FIRST_LINES: usize = 12;

/// A failed child's output cut for a message: from the first line `starts` (the line that says what went
/// wrong; the lines before it say nothing of the failure), else from the start, at most [`FIRST_LINES`].
pub(super) fn first_lines(output: &str, starts: impl Fn(&str) -> bool) -> String {
    let lines: Vec<&str> = output.lines().collect();
    let start = lines.iter().position(|l| starts(l)).unwrap_or(0);
    lines[start..]
        .iter()
        .take(FIRST_LINES)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn describe(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

/// Runs `command` to completion with stdout and stderr captured (stdin closed); Ctrl-C kills it.
pub(super) fn capture(command: &mut Command) -> Result<Captured, MeasureError> {
    capture_with(command, true, None).map(|(out, _)| out)
}

/// [`capture`] for clean-up commands, which must run even after Ctrl-C.
pub(super) fn capture_to_end(command: &mut Command) -> Result<Captured, MeasureError> {
    capture_with(command, false, None).map(|(out, _)| out)
}

/// [`capture`] that kills the child once it has run for `limit`: `None` then, with nothing captured.
pub(super) fn capture_within(
    command: &mut Command,
    limit: Duration,
) -> Result<Option<Captured>, MeasureError> {
    capture_with(command, true, Some(limit)).map(|(out, timed_out)| (!timed_out).then_some(out))
}

/// The child's output and whether `limit` killed it.
fn capture_with(
    command: &mut Command,
    stoppable: bool,
    limit: Option<Duration>,
) -> Result<(Captured, bool), MeasureError> {
    let started = std::time::Instant::now();
    if stoppable && interrupt::requested() {
        return Err(MeasureError::Interrupted);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| MeasureError::Spawn {
            command: describe(command),
            error: source,
        })?;
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let (status, timed_out) = loop {
        if stoppable && interrupt::requested() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(MeasureError::Interrupted);
        }
        if limit.is_some_and(|limit| started.elapsed() >= limit) {
            let _ = child.kill();
            let status = child.wait().map_err(|source| MeasureError::Spawn {
                command: describe(command),
                error: source,
            })?;
            break (status, true);
        }
        match child.try_wait() {
            Ok(Some(status)) => break (status, false),
            Ok(None) => thread::sleep(Duration::from_millis(20)),
            Err(source) => {
                return Err(MeasureError::Spawn {
                    command: describe(command),
                    error: source,
                });
            }
        }
    };
    if stoppable && !status.success() && interrupted_meanwhile() {
        return Err(MeasureError::Interrupted);
    }
    let join =
        |h: Option<thread::JoinHandle<Vec<u8>>>| h.and_then(|h| h.join().ok()).unwrap_or_default();
    let out = Captured {
        status,
        stdout: join(stdout),
        stderr: join(stderr),
    };
    Ok((out, timed_out))
}

/// Ctrl-C in a terminal reaches the child too, which may die of it before our handler has run: a child
/// that failed gets a moment for the flag to be seen, so that the user reads "interrupted", not a crash.
fn interrupted_meanwhile() -> bool {
    interrupt::requested() || {
        thread::sleep(Duration::from_millis(100));
        interrupt::requested()
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_that_cannot_start_names_its_reason_once_in_the_error_chain() {
        let mut command = Command::new("/nonexistent/cargo-speedup-test-program");
        let error = capture_to_end(&mut command).unwrap_err();
        let chain = format!("{:#}", anyhow::Error::from(error));
        assert!(
            chain.contains("could not start `/nonexistent/cargo-speedup-test-program`"),
            "{chain}"
        );
        assert_eq!(chain.matches("No such file").count(), 1, "{chain}");
    }
}
