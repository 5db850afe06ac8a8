//! Whether a JSON text can be read skipping nested values with `serde::de::IgnoredAny` and give what the
//! full reading gives ([`plain`], see [`super`]'s module doc): a scan of the bytes for the three things only
//! the full reading refuses (nesting past serde_json's recursion limit, a number beyond `f64`, a `\u` escape
//! of a lone surrogate).
//!
//! The scan is conservative: it may refuse a text the skipping reading would read right (the text is then
//! read in full, as before), never the reverse. It runs over most of a results file (digits, commas,
//! names), so it reads 8 bytes at a time and looks at single bytes only in a word holding a quote, a
//! backslash, a bracket or an `e` (see [`Scan::word_is_quiet`]).
//!
//! Must not: parse or validate JSON (serde_json does), or decide anything but "plain or not".

/// The deepest nesting of arrays and objects [`plain`] clears: below serde_json's recursion limit
/// ([`super::MAX_NESTING`]), so that the full reading of a text within it never reaches
/// the limit.
pub(super) const PLAIN_DEPTH: usize = 100;
const _: () = assert!(PLAIN_DEPTH < super::MAX_NESTING);

/// The most characters of a number's mantissa plus its positive exponent [`plain`] clears: such a number is
/// below 10^300, far from `f64::MAX` (1.8 × 10^308), so the full reading converts it to a finite `f64`.
const PLAIN_MAGNITUDE: usize = 300;

/// How many 8-byte words of digits in a row [`plain`] clears: 32 words are 256 digits, below the 300 a
/// number needs to come near `f64::MAX` (a run of 300 digits holds at least 35 whole words, wherever the
/// words start: a word is scanned past its 8 bytes only at an escape or an exponent, not in a run of
/// digits, and the last 7 bytes of a text are no word).
const PLAIN_DIGIT_WORDS: usize = 32;

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// Whether some byte of `word` is `byte` (exact: the classic zero-byte test, Mycroft's, as in Anderson's
/// "Bit Twiddling Hacks", "Determine if a word has a zero byte"; its false positives are only above a true
/// one).
fn has_byte(word: u64, byte: u8) -> bool {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS != 0
}

/// Whether every byte of `word` is below 0x40 (digits, `,`, `.`, `-`, `+`, white space, `:`) and none is a
/// quote: outside a string, such a word is quiet (see [`Scan::word_is_quiet`]) by a cheaper test, which
/// takes the words of numbers.
fn numeric(word: u64) -> bool {
    word & u64::from_le_bytes([0xC0; 8]) == 0 && !has_byte(word, b'"')
}

/// Whether every byte of a [`numeric`] word is a digit or one of `:;<=>?`, the bytes 0x30 to 0x3F: every
/// word of a run of digits is.
fn digits(word: u64) -> bool {
    let high = u64::from_le_bytes([0x30; 8]);
    word & high == high
}

/// Whether reading `text` skipping nested values with `IgnoredAny` is sure to give the full reading's result:
/// outside strings, arrays and objects nest at most [`PLAIN_DEPTH`] deep, no run of digits is long enough to
/// come near `f64::MAX` (see [`PLAIN_DIGIT_WORDS`]) and no positive exponent takes a number past 10^300
/// ([`PLAIN_MAGNITUDE`]); inside strings, no `\u` escape starts with `d` or `D` (where the surrogates are).
/// The scan assumes the text is JSON: on a text that is not, its answer is meaningless but harmless, since
/// both readings refuse such a text (and the skipping one's refusal sends it to the full reading).
pub(super) fn plain(text: &[u8]) -> bool {
    let mut scan = Scan {
        text,
        at: 0,
        depth: 0,
        in_string: false,
    };
    // The words of digits in a row (or of the bytes `digits` takes with them), outside strings.
    let mut digit_words = 0;
    let mut at = 0;
    while let Some(bytes) = text.get(at..at + 8) {
        let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        if !scan.in_string && numeric(word) {
            if digits(word) {
                digit_words += 1;
                if digit_words >= PLAIN_DIGIT_WORDS {
                    return false;
                }
            } else {
                digit_words = 0;
            }
            at += 8;
            continue;
        }
        // Not numeric, so not all digits.
        digit_words = 0;
        if scan.word_is_quiet(word) {
            at += 8;
            continue;
        }
        scan.at = at;
        while scan.at < at + 8 {
            if !scan.byte() {
                return false;
            }
        }
        at = scan.at;
    }
    scan.at = at;
    while scan.at < text.len() {
        if !scan.byte() {
            return false;
        }
    }
    true
}

/// Where the scan of [`plain`] is.
struct Scan<'a> {
    text: &'a [u8],
    /// The next byte to look at.
    at: usize,
    /// The nesting of arrays and objects.
    depth: usize,
    /// Whether `at` is inside a string.
    in_string: bool,
}

impl Scan<'_> {
    /// Whether the word at `at` has nothing the scan must look at: inside a string no quote or backslash;
    /// outside, no quote, no bracket or brace and no `e` or `E`. Brackets and braces are told by one test,
    /// `byte & 0xD9 == 0x59`, which also takes `Y`, `_`, `y` and DEL: such a word is looked at byte by byte,
    /// which only costs time.
    fn word_is_quiet(&self, word: u64) -> bool {
        if self.in_string {
            !has_byte(word, b'"') && !has_byte(word, b'\\')
        } else {
            !has_byte(word, b'"')
                && !has_byte(word & u64::from_le_bytes([0xD9; 8]), 0x59)
                && !has_byte(word | u64::from_le_bytes([0x20; 8]), b'e')
        }
    }

    /// Looks at the byte at `at` and moves past it (and past the rest of an escape or an exponent); `false`
    /// when the text is not plain.
    fn byte(&mut self) -> bool {
        let text = self.text;
        let byte = text[self.at];
        self.at += 1;
        if self.in_string {
            match byte {
                b'"' => self.in_string = false,
                b'\\' => {
                    if text.get(self.at) == Some(&b'u')
                        && matches!(text.get(self.at + 1), Some(b'd' | b'D'))
                    {
                        return false;
                    }
                    self.at += 1;
                }
                _ => {}
            }
            return true;
        }
        match byte {
            b'"' => self.in_string = true,
            b'[' | b'{' => {
                self.depth += 1;
                return self.depth <= PLAIN_DEPTH;
            }
            b']' | b'}' => self.depth = self.depth.saturating_sub(1),
            b'e' | b'E' if self.at >= 2 && text[self.at - 2].is_ascii_digit() => {
                return self.exponent();
            }
            _ => {}
        }
        true
    }

    /// Reads the exponent after the `e` just passed: `false` when it is positive and, with the characters
    /// of the mantissa before it, passes [`PLAIN_MAGNITUDE`].
    fn exponent(&mut self) -> bool {
        let text = self.text;
        let e = self.at - 1;
        let negative = text.get(self.at) == Some(&b'-');
        if matches!(text.get(self.at), Some(b'+' | b'-')) {
            self.at += 1;
        }
        let mut exponent = 0usize;
        while let Some(digit) = text.get(self.at).filter(|b| b.is_ascii_digit()) {
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(usize::from(digit - b'0'));
            self.at += 1;
        }
        if negative {
            return true;
        }
        let mantissa = text[..e]
            .iter()
            .rev()
            .take(PLAIN_MAGNITUDE + 1)
            .take_while(|b| b.is_ascii_digit() || **b == b'.')
            .count();
        mantissa.saturating_add(exponent) <= PLAIN_MAGNITUDE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_tests_match_the_bytes() {
        for byte in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = [b'5'; 8];
                bytes[at] = byte;
                let word = u64::from_le_bytes(bytes);
                assert_eq!(has_byte(word, b'"'), byte == b'"', "{byte:#x} at {at}");
                assert_eq!(
                    numeric(word) && digits(word),
                    (0x30..0x40).contains(&byte),
                    "{byte:#x} at {at}"
                );
                if numeric(word) {
                    assert!(byte < 0x40 && byte != b'"', "{byte:#x} at {at}");
                }
                let quiet = Scan {
                    text: &[],
                    at: 0,
                    depth: 0,
                    in_string: false,
                }
                .word_is_quiet(word);
                if matches!(byte, b'"' | b'[' | b']' | b'{' | b'}' | b'e' | b'E') {
                    assert!(!quiet, "{byte:#x} at {at}");
                }
            }
        }
    }

    /// `text` with `pad` spaces before it, so that its bytes fall at every place of the 8-byte words.
    fn padded(pad: usize, text: &str) -> Vec<u8> {
        format!("{}{text}", " ".repeat(pad)).into_bytes()
    }

    #[test]
    fn results_are_plain_wherever_the_words_fall() {
        let raw = r#"{"unit": "ns", "benchmarks": [{"name": "a\"[{\\", "samples": [1.5e3, -0, 2E+10, true, false]}]}"#;
        let at_depth = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let in_string = format!("[\"{}\\\"{}\"]", "[".repeat(200), "{".repeat(200));
        for pad in 0..16 {
            for text in [
                raw,
                &at_depth(PLAIN_DEPTH),
                &in_string,
                &format!("[{}]", "9".repeat(255)),
                &format!("[{}.{}]", "9".repeat(200), "9".repeat(200)),
                "[1e299, 10e298, 1.5e-999, 1E+299, 0.5e-99999999999999999999]",
                r#"["\\u", "\u00e9", "\\\\ud800"]"#,
            ] {
                assert!(plain(&padded(pad, text)), "{pad}: {text}");
            }
        }
    }

    #[test]
    fn what_only_the_full_reading_refuses_is_never_plain() {
        let at_depth = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        for pad in 0..16 {
            for text in [
                &at_depth(PLAIN_DEPTH + 1),
                &format!(
                    "{{\"a\": {}1{}}}",
                    "[".repeat(PLAIN_DEPTH),
                    "]".repeat(PLAIN_DEPTH)
                ),
                &format!("[{}]", "9".repeat(300)),
                &format!("[1, {}.5]", "9".repeat(400)),
                "[1e300]",
                "[10e299]",
                "[0E+301]",
                "[1.5e299]",
                "[1e99999999999999999999]",
                r#"["\ud800"]"#,
                r#"["\uD83D\uDE00"]"#,
                r#"{"\uDC00": 1}"#,
            ] {
                assert!(!plain(&padded(pad, text)), "{pad}: {text}");
            }
        }
    }
}
