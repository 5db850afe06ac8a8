//! The top level of a JSON document, read without building its tree: an object (each member's kind, a
//! string member with its text), an array, or another value. [`super::detect`], the wording of unreadable
//! files, cargo-criterion's lines and the parts of `merge` look at it before a typed reader parses the text:
//! parsing a whole file into `serde_json::Value` takes several times the file's size, while this keeps only
//! the top level's keys (nested values are checked and dropped as they are read). Nesting deeper than
//! serde_json's recursion limit (128) is refused here as by every reader, so that the message names it.
//!
//! The values below the top level's members are skipped with `serde::de::IgnoredAny` whenever that gives
//! the result of the full reading: serde_json then checks their syntax without converting their numbers
//! (most of a results file), which is several times cheaper. It differs from the full reading in three ways
//! only: it follows nesting past serde_json's recursion limit, it takes a number too large for an `f64`
//! (`1e400`) and it takes a `\u` escape of a lone surrogate, where the full reading refuses all three. A
//! scan of the bytes ([`plain()`]) rules the three out before the skipping reading is used (nesting of at
//! most 100, numbers below 10^300, no `\uD` escape); a text it does not clear is read in full, as is every
//! text the skipping reading refuses, so that errors are the full reading's.
//!
//! Must not: keep anything below the top level, or decide a format (the callers do).

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

mod plain;

use plain::plain;

/// The nesting of arrays and objects at which serde_json refuses a text (its recursion limit: the 128th
/// level is refused). The wording of unreadable files names it; the scan of [`plain()`] stays below it.
pub(crate) const MAX_NESTING: usize = 128;

/// Whether serde_json refused a text for nesting [`MAX_NESTING`] levels deep.
pub(crate) fn is_too_deep(error: &serde_json::Error) -> bool {
    error.to_string().starts_with("recursion limit exceeded")
}

/// What a JSON document is at its top level.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TopLevel {
    /// An object: its members by key (the last of a repeated key, as `serde_json::Value` keeps).
    Object(BTreeMap<String, Member>),
    /// An array.
    Array,
    /// A string, a number, `true`, `false` or `null`.
    Other,
}

/// The kind of one member of a top-level object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Member {
    /// A string, with its text.
    String(String),
    /// An array.
    Array,
    /// An object.
    Object,
    /// A number, `true`, `false` or `null`.
    Other,
}

impl TopLevel {
    /// The top level of the JSON `text`; the parser's error when the text is not JSON.
    ///
    /// The same value and the same error as [`TopLevel::parse_full`]: a text that [`plain()`] clears is read
    /// skipping nested values, and read in full only when that reading refuses it (to tell why).
    pub(crate) fn parse(text: &str) -> Result<TopLevel, serde_json::Error> {
        match Self::parse_skipping(text) {
            Some(Ok(top)) => Ok(top),
            _ => Self::parse_full(text),
        }
    }

    /// The top level of the JSON `text`, `None` when it is not JSON: `TopLevel::parse(text).ok()` without
    /// reading a text twice when only whether it parses matters (format detection).
    pub(crate) fn parse_ok(text: &str) -> Option<TopLevel> {
        match Self::parse_skipping(text) {
            Some(result) => result.ok(),
            None => Self::parse_full(text).ok(),
        }
    }

    /// The top level read with every value below it checked through `deserialize_any` (numbers converted,
    /// nesting counted): the reference reading. Public to the crate's tests so that they can compare.
    pub(crate) fn parse_full(text: &str) -> Result<TopLevel, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The top level read skipping nested values with `IgnoredAny`, when [`plain()`] clears `text`; `None`
    /// when it does not. Its `Ok` is the full reading's `Ok`; so is its `Err` (the skipping reading refuses
    /// a subset of what the full one refuses), though not necessarily with the same message.
    fn parse_skipping(text: &str) -> Option<Result<TopLevel, serde_json::Error>> {
        plain(text.as_bytes()).then(|| {
            let mut deserializer = serde_json::Deserializer::from_str(text);
            let top = deserializer.deserialize_any(TopVisitor::<IgnoredAny>(PhantomData))?;
            deserializer.end()?;
            Ok(top)
        })
    }

    /// The members of an object (`None` for an array or another value).
    pub(crate) fn object(&self) -> Option<&BTreeMap<String, Member>> {
        match self {
            TopLevel::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The text of the string member `key`.
    pub(crate) fn string(&self, key: &str) -> Option<&str> {
        match self.object()?.get(key)? {
            Member::String(text) => Some(text),
            _ => None,
        }
    }

    /// Whether the member `key` is an array.
    pub(crate) fn is_array(&self, key: &str) -> bool {
        self.object()
            .is_some_and(|members| members.get(key) == Some(&Member::Array))
    }

    /// Whether the object has a member `key`, of any kind.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.object()
            .is_some_and(|members| members.contains_key(key))
    }
}

/// The visits of `true`, `false`, numbers and `null` of a visitor that makes them all `$value`.
macro_rules! other_scalars {
    ($value:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// Drains a sequence without keeping anything, each element read as `S` ([`Skip`] or `IgnoredAny`).
fn drain_seq<'de, S: Deserialize<'de>, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<S>()?.is_some() {}
    Ok(())
}

/// Drains a map without keeping anything, each key and value read as `S` ([`Skip`] or `IgnoredAny`).
fn drain_map<'de, S: Deserialize<'de>, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<S, S>()?.is_some() {}
    Ok(())
}

/// Any JSON value, read and dropped. Unlike `serde::de::IgnoredAny`, which serde_json skips without a depth
/// limit, it goes through `deserialize_any`, so that nesting past the recursion limit is an error here too.
/// The raw JSON reader skips the fields it does not read with it, for the same reason.
pub(super) struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Skip, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Skip, A::Error> {
        drain_map::<Skip, A>(map).map(|()| Skip)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Skip, A::Error> {
        drain_seq::<Skip, A>(seq).map(|()| Skip)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }

    other_scalars!(Skip);
}

/// Reads the top level, the values below its members read as `S`: [`Skip`] for the full reading,
/// `IgnoredAny` for the skipping one.
struct TopVisitor<S>(PhantomData<S>);

impl<'de, S: Deserialize<'de>> Visitor<'de> for TopVisitor<S> {
    type Value = TopLevel;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevel, A::Error> {
        let mut members = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let member = map.next_value_seed(MemberSeed::<S>(PhantomData))?;
            members.insert(key, member);
        }
        Ok(TopLevel::Object(members))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TopLevel, A::Error> {
        drain_seq::<S, A>(seq).map(|()| TopLevel::Array)
    }

    fn visit_str<E>(self, _: &str) -> Result<TopLevel, E> {
        Ok(TopLevel::Other)
    }

    other_scalars!(TopLevel::Other);
}

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TopLevel, D::Error> {
        deserializer.deserialize_any(TopVisitor::<Skip>(PhantomData))
    }
}

/// The next value of `map` read as a member of the top level is read here, nested values checked and
/// dropped ([`Skip`]): for a reader that reads the top level itself (the raw JSON reader), so that
/// [`super::detect`]'s rules can be asked of what it read.
pub(super) fn next_member<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Member, A::Error> {
    map.next_value_seed(MemberSeed::<Skip>(PhantomData))
}

/// Reads one member of the top level, the values inside it read as `S`.
struct MemberSeed<S>(PhantomData<S>);

impl<'de, S: Deserialize<'de>> DeserializeSeed<'de> for MemberSeed<S> {
    type Value = Member;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_any(MemberVisitor::<S>(PhantomData))
    }
}

struct MemberVisitor<S>(PhantomData<S>);

impl<'de, S: Deserialize<'de>> Visitor<'de> for MemberVisitor<S> {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Member, A::Error> {
        drain_map::<S, A>(map).map(|()| Member::Object)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Member, A::Error> {
        drain_seq::<S, A>(seq).map(|()| Member::Array)
    }

    fn visit_str<E>(self, text: &str) -> Result<Member, E> {
        Ok(Member::String(text.to_string()))
    }

    other_scalars!(Member::Other);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_keeps_the_kind_of_each_member_and_the_text_of_strings() {
        let top = TopLevel::parse(
            r#"{"schema": "cargo-speedup/1", "benchmarks": [{"a": [1, 2]}], "context": {"x": 1},
                "n": 1.5, "t": true, "z": null}"#,
        )
        .unwrap();
        assert_eq!(top.string("schema"), Some("cargo-speedup/1"));
        assert!(top.is_array("benchmarks") && !top.is_array("context"));
        assert!(top.has("context") && top.has("z") && !top.has("absent"));
        assert_eq!(top.object().unwrap().get("n"), Some(&Member::Other));
        assert_eq!(top.object().unwrap().get("context"), Some(&Member::Object));
    }

    /// `parse` and `parse_ok` give what the full reading gives for `text`: the same value, or the same
    /// error (`parse`) and none (`parse_ok`).
    fn assert_as_full(text: &str) {
        let full = TopLevel::parse_full(text).map_err(|e| e.to_string());
        let parsed = TopLevel::parse(text).map_err(|e| e.to_string());
        assert_eq!(parsed, full, "{text:.200}");
        assert_eq!(TopLevel::parse_ok(text), full.ok(), "{text:.200}");
    }

    /// Numbers of every kind the skipping reading must take as the full reading does: zeros of both signs,
    /// ties, the extremes of `f64`, exponents, long digit strings.
    const NUMBERS: [&str; 16] = [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "1",
        "1000.5",
        "1000.5",
        "1.7976931348623157e308",
        "-1.7976931348623157e308",
        "5e-324",
        "2.2250738585072014E-308",
        "1e-400",
        "0e99999999999999999999",
        "123456789012345678901234567890",
        "1.0000000000000000000000000000000000001e+20",
    ];

    #[test]
    fn the_skipping_reading_gives_the_full_readings_value_and_error() {
        for n in [1, 2, 3, 100] {
            let numbers: Vec<&str> = NUMBERS.iter().copied().cycle().take(n).collect();
            let list = numbers.join(", ");
            let texts = [
                format!(
                    r#"{{"unit": "ns", "benchmarks": [{{"name": "a", "samples": [{list}]}}]}}"#
                ),
                format!(
                    r#"{{"schema": "x", "n": {}, "deep": [[[{list}]]], "o": {{"k": [{list}]}}}}"#,
                    numbers[0]
                ),
                format!("[{list}]"),
                format!(r#"{{"a": [{list}], "a": "again", "b": "\u00e9\n\"\\u0044"}}"#),
                // Broken: a trailing comma, a missing bracket, text after the value, NaN.
                format!(r#"{{"a": [{list},]}}"#),
                format!(r#"{{"a": [{list}}}"#),
                format!(r#"{{"a": [{list}]}} x"#),
                format!(r#"{{"a": [{list}, NaN]}}"#),
            ];
            for text in &texts {
                assert_as_full(text);
            }
        }
        // What only the full reading refuses, at each depth below the top level: numbers past `f64::MAX`, a
        // lone surrogate (in a value and in a key), nesting past the recursion limit.
        for bad in [
            "1e400",
            "-1e400",
            "1.8e308",
            "1e99999999999999999999",
            &"9".repeat(400),
            r#""\ud800""#,
            r#""\uDC00x""#,
            r#"{"\ud800": 1}"#,
        ] {
            for text in [
                format!(r#"{{"a": {bad}}}"#),
                format!(r#"{{"a": [1, {bad}]}}"#),
                format!(r#"{{"a": {{"b": [{{"c": {bad}}}]}}}}"#),
                format!("[[{bad}]]"),
            ] {
                assert!(TopLevel::parse_full(&text).is_err(), "{text}");
                assert_as_full(&text);
            }
        }
        // A surrogate pair is JSON; the scan leaves it to the full reading.
        assert_as_full(r#"{"a": ["\ud83d\ude00"]}"#);
        let nested =
            |depth: usize| format!("{{\"a\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
        for depth in [1, 2, 98, 99, 100, 101, 125, 126, 127, 128, 200] {
            assert_as_full(&nested(depth));
        }
    }

    #[test]
    fn every_fixture_reads_as_in_full() {
        let mut read = 0;
        let mut dirs = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("fixtures") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    assert_as_full(&text);
                    for line in text.lines() {
                        assert_as_full(line);
                    }
                    read += 1;
                }
            }
        }
        assert!(read > 100, "{read} fixtures read");
    }

    #[test]
    fn arrays_other_values_and_broken_text_are_told_apart() {
        assert_eq!(
            TopLevel::parse("[1, {\"a\": []}]").unwrap(),
            TopLevel::Array
        );
        assert_eq!(TopLevel::parse("\"text\"").unwrap(), TopLevel::Other);
        assert_eq!(TopLevel::parse("12").unwrap(), TopLevel::Other);
        assert!(TopLevel::parse("{\"a\": [1, 2").is_err());
        assert!(TopLevel::parse("{} trailing").is_err());
        // Nesting is followed to serde_json's limit, and refused past it without overflowing the stack.
        let nested =
            |depth: usize| format!("{{\"a\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(
            TopLevel::parse(&nested(100))
                .unwrap()
                .object()
                .unwrap()
                .len(),
            1
        );
        for depth in [200, 100_000] {
            let error = TopLevel::parse(&nested(depth)).unwrap_err();
            assert!(super::is_too_deep(&error), "{error}");
        }
    }
}
