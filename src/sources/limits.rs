//! How much of an input is read (`docs/formats.md` §11): every file a reader opens, and standard input, is read
//! through [`read_file`] or [`read_stdin`] with a size limit, and the numbers of its text are bounded by
//! [`excess_numbers`] before any parser allocates for it.
//!
//! - **Size**: [`DEFAULT_MAX_INPUT_SIZE`] (256 MiB) per file, raised by `--max-input-size SIZE` on `compare`
//!   and `merge`. A regular file larger than the limit is refused from its metadata, without reading it; a
//!   stream (standard input, a pipe, `/dev/zero`) is read up to the limit and refused at the byte after it.
//!   The largest results file of a real suite is a few megabytes: 256 MiB is 50 to 100 times that.
//! - **Numbers**: at most one number per [`BYTES_PER_NUMBER`] (32) bytes of the size limit: 8,388,608 by
//!   default, counted in the text before it is parsed (every run of digits counts, those in names too).
//!   Every sample a reader keeps is one number of the text, so this bounds the samples of one input; a
//!   sample that is a process run of its own (raw JSON `samples`, hyperfine, Go) takes about 72 bytes once
//!   read (`model::Run`), so reading one input takes at most about three and a half times the size limit
//!   (the text, the numbers parsed, the runs): under 1 GiB by default. Real files have one number per 10 to
//!   30 bytes, and a suite's file holds thousands of samples, not millions.
//!
//! Why the number limit follows the size limit instead of being an option of its own: a file of `1,1,1,...`
//! holds a number per 2 bytes; tying the two keeps one option, one memory bound, and one fix in every
//! message (`--max-input-size`).
//!
//! A named pipe is read as any stream: opening it waits for a writer, as `cat` does (`docs/formats.md` §11).
//! Must not: parse anything.

use std::io::Read;
use std::path::Path;

/// The size limit of one input without `--max-input-size`: 256 MiB.
pub(crate) const DEFAULT_MAX_INPUT_SIZE: u64 = 256 * MIB;

/// At most one number per this many bytes of the size limit (see the module doc for the memory it bounds).
pub(crate) const BYTES_PER_NUMBER: u64 = 32;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;
const GIB: u64 = 1024 * MIB;

/// The most numbers an input of at most `max_size` bytes may hold.
pub(crate) fn max_numbers(max_size: u64) -> u64 {
    max_size / BYTES_PER_NUMBER
}

/// Parses `--max-input-size`: bytes, or a number with `K`, `M`, `G` (`KiB`, `MiB`, `GiB`: powers of 1024) or
/// `KB`, `MB`, `GB` (powers of 1000), as GNU tools read them; case and a space before the unit do not matter.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "`{text}` is not a size; expected bytes or a number with K, M, G (KiB, MiB, GiB: powers of \
             1024) or KB, MB, GB (powers of 1000), e.g. 512MiB"
        )
    };
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => KIB,
        "m" | "mib" => MIB,
        "g" | "gib" => GIB,
        "kb" => 1000,
        "mb" => 1000 * 1000,
        "gb" => 1000 * 1000 * 1000,
        _ => return Err(bad()),
    };
    let value: f64 = number.parse().map_err(|_| bad())?;
    let bytes = value * factor as f64;
    if bytes < 1.0 {
        return Err(format!(
            "`{text}` is less than one byte; give a size such as 512MiB"
        ));
    }
    if bytes > u64::MAX as f64 / 2.0 {
        return Err(format!(
            "`{text}` is larger than any file; give a size such as 1GiB"
        ));
    }
    Ok(bytes.floor() as u64)
}

/// A size as people read it: `256 MiB`, `1.5 KiB`, `100 bytes`.
pub(crate) fn size_text(bytes: u64) -> String {
    let unit = [(GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")]
        .into_iter()
        .find(|&(size, _)| bytes >= size);
    match unit {
        Some((size, name)) if bytes % size == 0 => format!("{} {name}", bytes / size),
        Some((size, name)) => format!("{:.1} {name}", bytes as f64 / size as f64),
        None if bytes == 1 => "1 byte".into(),
        None => format!("{bytes} bytes"),
    }
}

/// A count with thousands separated by commas: `8,388,608`.
pub(crate) fn count_text(count: u64) -> String {
    let digits = count.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The `--max-input-size` to suggest when `limit` was too small for a file of `size` bytes (unknown for a
/// stream): the next power of two of at least twice the limit and above the size, in `--max-input-size`'s
/// spelling.
pub(crate) fn suggested_limit(limit: u64, size: Option<u64>) -> String {
    let wanted = limit
        .saturating_mul(2)
        .max(size.unwrap_or(0).saturating_add(1));
    let power = wanted.checked_next_power_of_two().unwrap_or(wanted);
    let unit = [(GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")]
        .into_iter()
        .find(|&(size, _)| power >= size && power % size == 0);
    match unit {
        Some((size, name)) => format!("{}{name}", power / size),
        None => power.to_string(),
    }
}

/// Why an input could not be read whole.
#[derive(Debug)]
pub(crate) enum LimitedReadError {
    /// The operating system's error.
    Io(std::io::Error),
    /// The input holds more than the limit; its size when known (a regular file).
    TooLarge {
        /// The size of a regular file; `None` for a stream, read up to the limit.
        size: Option<u64>,
    },
}

/// The bytes of the file at `path`, at most `limit` of them.
pub(crate) fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, LimitedReadError> {
    let file = std::fs::File::open(path).map_err(LimitedReadError::Io)?;
    let meta = file.metadata().map_err(LimitedReadError::Io)?;
    if meta.is_file() && meta.len() > limit {
        return Err(LimitedReadError::TooLarge {
            size: Some(meta.len()),
        });
    }
    let expected = if meta.is_file() { meta.len() } else { 0 };
    read_limited(file, limit, expected)
}

/// Standard input, at most `limit` bytes of it.
pub(crate) fn read_stdin(limit: u64) -> Result<Vec<u8>, LimitedReadError> {
    read_limited(std::io::stdin().lock(), limit, 0)
}

/// At most `limit` bytes of `reader`; more is [`LimitedReadError::TooLarge`]. `expected` sizes the buffer.
fn read_limited(reader: impl Read, limit: u64, expected: u64) -> Result<Vec<u8>, LimitedReadError> {
    let mut bytes = Vec::with_capacity(expected.min(limit).saturating_add(1) as usize);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(LimitedReadError::Io)?;
    if bytes.len() as u64 > limit {
        // A regular file that grew since its metadata was read is refused as a stream is.
        return Err(LimitedReadError::TooLarge { size: None });
    }
    Ok(bytes)
}

/// How many numbers `text` holds when that is more than an input of the size limit `max_size` may hold
/// ([`max_numbers`]); `None` when it is not. Two numbers are apart by at least one byte that is in neither,
/// so a text of `len` bytes holds at most ⌈len / 2⌉ of them: a text no longer than twice the allowed count is
/// not counted at all (a results file of a few megabytes under the default limit, which allows 8,388,608
/// numbers).
pub(crate) fn excess_numbers(text: &[u8], max_size: u64) -> Option<u64> {
    let allowed = max_numbers(max_size);
    if (text.len() as u64).div_ceil(2) <= allowed {
        return None;
    }
    let found = count_numbers(text);
    (found > allowed).then_some(found)
}

/// How many numbers `text` holds: each run of the characters a number is written with (`0-9`, `.`, `e`,
/// `E`, `+`, `-`) that has a digit counts once. Digits inside names count too: an upper bound of the
/// samples any reader can take from the text, computed without allocating.
pub(crate) fn count_numbers(text: &[u8]) -> u64 {
    let mut count = 0;
    let (mut in_run, mut has_digit) = (false, false);
    for &b in text {
        let digit = b.is_ascii_digit();
        if digit || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-') {
            if !in_run {
                (in_run, has_digit) = (true, false);
            }
            if digit && !has_digit {
                count += 1;
                has_digit = true;
            }
        } else {
            in_run = false;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_as_gnu_tools_read_them() {
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("1K"), Ok(1024));
        assert_eq!(parse_size("1kb"), Ok(1000));
        assert_eq!(parse_size("512MiB"), Ok(536_870_912));
        assert_eq!(parse_size("2 GiB"), Ok(2_147_483_648));
        assert_eq!(parse_size("1.5M"), Ok(1_572_864));
        assert_eq!(parse_size("3GB"), Ok(3_000_000_000));
        assert!(parse_size("lots").unwrap_err().contains("is not a size"));
        assert!(parse_size("0").unwrap_err().contains("less than one byte"));
        assert!(parse_size("-5M").is_err());
        assert!(parse_size("1e30G").is_err());
        assert!(parse_size("99999999999999999999G").is_err());
    }

    #[test]
    fn sizes_are_printed_in_the_largest_whole_unit() {
        assert_eq!(size_text(DEFAULT_MAX_INPUT_SIZE), "256 MiB");
        assert_eq!(size_text(1024), "1 KiB");
        assert_eq!(size_text(1536), "1.5 KiB");
        assert_eq!(size_text(1000), "1000 bytes");
        assert_eq!(size_text(1), "1 byte");
        assert_eq!(count_text(max_numbers(DEFAULT_MAX_INPUT_SIZE)), "8,388,608");
        assert_eq!(count_text(999), "999");
        assert_eq!(count_text(1000), "1,000");
        assert_eq!(count_text(0), "0");
        assert_eq!(suggested_limit(DEFAULT_MAX_INPUT_SIZE, None), "512MiB");
        assert_eq!(suggested_limit(1024, Some(5000)), "8KiB");
        assert_eq!(suggested_limit(100, None), "256");
        assert_eq!(parse_size(&suggested_limit(1024, Some(5000))), Ok(8192));
    }

    #[test]
    fn numbers_are_counted_once_each_whatever_their_spelling() {
        assert_eq!(count_numbers(b""), 0);
        assert_eq!(count_numbers(b"[1, 2.5, -3e-7, 4E+2,5]"), 5);
        assert_eq!(count_numbers(b"{\"name\": \"e\", \"unit\": \"ns\"}"), 0);
        assert_eq!(count_numbers(b"BenchmarkFib-8  1000  123.4 ns/op"), 3);
        assert_eq!(count_numbers(b"1,1,1,1"), 4);
    }

    #[test]
    fn a_text_is_counted_only_when_it_could_hold_too_many_numbers() {
        // 32 bytes of limit allow one number; 64 allow two.
        assert_eq!(excess_numbers(b"1,1,1", 64), Some(3));
        assert_eq!(excess_numbers(b"1,1,1", 96), None);
        assert_eq!(excess_numbers(b"1,1", 64), None);
        // Long enough to be counted, and within the limit once counted: the words hold no number.
        assert_eq!(excess_numbers(b"abcde", 32), None);
        assert_eq!(excess_numbers(b"12345", 0), Some(1));
    }

    #[test]
    fn a_stream_is_read_up_to_the_limit_and_no_further() {
        let five = read_limited(&b"12345"[..], 5, 0).unwrap();
        assert_eq!(five, b"12345");
        assert!(matches!(
            read_limited(&b"123456"[..], 5, 0),
            Err(LimitedReadError::TooLarge { size: None })
        ));
        // An endless stream stops at the byte after the limit.
        let endless = std::io::repeat(0);
        assert!(matches!(
            read_limited(endless, 1 << 16, 0),
            Err(LimitedReadError::TooLarge { size: None })
        ));
    }

    #[test]
    fn a_regular_file_over_the_limit_is_refused_by_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b' '; 2048]).unwrap();
        assert!(matches!(
            read_file(&path, 1024),
            Err(LimitedReadError::TooLarge { size: Some(2048) })
        ));
        assert_eq!(read_file(&path, 2048).unwrap().len(), 2048);
        assert!(matches!(
            read_file(&dir.path().join("absent"), 10),
            Err(LimitedReadError::Io(_))
        ));
    }
}
