//! stub
use super::SourceError;
use crate::model::Results;
pub fn parse(_text: &str, origin: &str, _selector: Option<&str>) -> Result<Results, SourceError> {
    Err(super::invalid(origin, "gbench", "todo"))
}
pub fn tolerant_json(text: &str) -> String {
    text.to_string()
}
