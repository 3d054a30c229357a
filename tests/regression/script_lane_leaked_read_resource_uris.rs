//! Found by the vector harness while building the script lane: a `resources/read` result
//! inside a script's result has `contents[]` items with no `type`, so they were left as they
//! were, uri and all.

use crate::common::script_of;
use serde_json::json;

#[test]
fn read_resource_contents_in_a_script_result_lose_their_uri() {
    let value = json!({"read": {"contents": [
        {"uri": "file:///home/me/.ssh/config", "mimeType": "text/plain", "text": "Host example"},
        {"uri": "file:///img.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}
    ]}});
    assert_eq!(
        script_of(&value),
        json!({"read": {"contents": [
            {"type": "text", "text": "Host example"},
            {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}
        ]}})
    );
}
