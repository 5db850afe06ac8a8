//! The top level of a JSON document, read without building its tree: an object (each member's kind, a
//! string member with its text), an array, or another value. [`super::detect`], the wording of unreadable
//! files, cargo-criterion's lines and the parts of `merge` look at it before a typed reader parses the text:
//! parsing a whole file into `serde_json::Value` takes several times the file's size, while this keeps only
//! the top level's keys (nested values are checked and dropped as they are read). Nesting deeper than
//! serde_json's recursion limit (128) is refused here as by every reader, so that the message names it.
//!
//! Must not: keep anything below the top level, or decide a format (the callers do).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

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
    pub(crate) fn parse(text: &str) -> Result<TopLevel, serde_json::Error> {
        serde_json::from_str(text)
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

/// Drains a sequence without keeping anything.
fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<Skip>()?.is_some() {}
    Ok(())
}

/// Drains a map without keeping anything.
fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<Skip, Skip>()?.is_some() {}
    Ok(())
}

/// Any JSON value, read and dropped. Unlike `serde::de::IgnoredAny`, which serde_json skips without a depth
/// limit, it goes through `deserialize_any`, so that nesting past the recursion limit is an error here too.
struct Skip;

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
        drain_map(map).map(|()| Skip)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Skip, A::Error> {
        drain_seq(seq).map(|()| Skip)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }

    other_scalars!(Skip);
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = TopLevel;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevel, A::Error> {
        let mut members = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let member = map.next_value::<Member>()?;
            members.insert(key, member);
        }
        Ok(TopLevel::Object(members))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TopLevel, A::Error> {
        drain_seq(seq).map(|()| TopLevel::Array)
    }

    fn visit_str<E>(self, _: &str) -> Result<TopLevel, E> {
        Ok(TopLevel::Other)
    }

    other_scalars!(TopLevel::Other);
}

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TopLevel, D::Error> {
        deserializer.deserialize_any(TopVisitor)
    }
}

struct MemberVisitor;

impl<'de> Visitor<'de> for MemberVisitor {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Member, A::Error> {
        drain_map(map).map(|()| Member::Object)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Member, A::Error> {
        drain_seq(seq).map(|()| Member::Array)
    }

    fn visit_str<E>(self, text: &str) -> Result<Member, E> {
        Ok(Member::String(text.to_string()))
    }

    other_scalars!(Member::Other);
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_any(MemberVisitor)
    }
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
            assert!(crate::sources::diagnose::is_too_deep(&error), "{error}");
        }
    }
}
