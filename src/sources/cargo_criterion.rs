//! stub
use super::SourceError;
use crate::model::{Results, Unit};
pub fn parse(_text: &str, origin: &str, _unit: Option<Unit>) -> Result<Results, SourceError> {
    Err(super::invalid(origin, "cc", "todo"))
}
pub fn has_messages(_text: &str) -> bool {
    false
}
