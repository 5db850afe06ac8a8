//! The bytes of an input and their text: a file read within the size limit, and bytes taken as UTF-8 text
//! holding no more numbers than an input of that size may (`docs/formats.md` §11). `load.rs` and the
//! criterion reader use it. Must not: detect or parse a format.

use std::path::Path;

use super::SourceError;
use super::limits::{self, LimitedReadError};

/// The bytes of the file at `path`, refused past the size limit `limit` (`docs/formats.md` §11).
pub(crate) fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, SourceError> {
    limits::read_file(path, limit).map_err(|e| read_error(e, &path.display().to_string(), limit))
}

pub(super) fn read_error(error: LimitedReadError, path: &str, limit: u64) -> SourceError {
    match error {
        LimitedReadError::Io(error) => SourceError::Read {
            path: path.into(),
            error,
        },
        LimitedReadError::TooLarge { size } => SourceError::TooLarge {
            path: path.into(),
            size,
            limit,
        },
    }
}

/// The text of `bytes` read from `origin`: UTF-8, without a byte-order mark, holding no more numbers than an
/// input of the size limit `limit` may (`docs/formats.md` §11).
pub(crate) fn text_of<'a>(
    bytes: &'a [u8],
    origin: &str,
    limit: u64,
) -> Result<&'a str, SourceError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        let before = &bytes[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        SourceError::NotUtf8 {
            path: origin.into(),
            offset,
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: offset - line_start + 1,
            byte: bytes[offset],
        }
    })?;
    if let Some(found) = limits::excess_numbers(bytes, limit) {
        return Err(SourceError::TooManyNumbers {
            path: origin.into(),
            found,
            limit,
        });
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}
