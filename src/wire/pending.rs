//! What a server asks of the host in place of a tool result (protocol revision 2026-07-28): an
//! input-required result, whose requests the host answers before calling again, or a task to
//! poll. Neither is content: the model reads one marker, and the host reads the typed outcome.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};

/// What a server asked of the host instead of a result, beside the marker the model reads
/// ([`AgentToolResult::pending`](crate::AgentToolResult::pending)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Pending {
    /// `resultType: "input_required"`: requests for the host to answer, then the call made
    /// again with [`InputRequired::retry_params`].
    InputRequired(InputRequired),
    /// `resultType: "task"` (the tasks extension): the call runs on as a task, to be polled
    /// with `tasks/get`.
    Task(TaskHandle),
}

/// An input-required result: the server's requests and its opaque state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InputRequired {
    /// `inputRequests`, each with its key, in key order.
    pub requests: Vec<InputRequest>,
    /// `requestState`, to be echoed back as it came; never read.
    pub request_state: Option<String>,
}

/// One of an input-required result's requests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct InputRequest {
    /// Its key in `inputRequests`: the key its answer goes back under.
    pub key: String,
    /// `method`: `elicitation/create`, `sampling/createMessage`, `roots/list`, or another
    /// (which the host answers as it can, or not at all).
    pub method: String,
    /// `params` as the server sent them (an object; `{}` where missing). Read an elicitation's
    /// with [`elicitation`](crate::elicitation) and a sampling request's with
    /// [`sampling_request`](crate::sampling_request) before any of it reaches a person or a
    /// model.
    pub params: Value,
}

/// A task the call became.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskHandle {
    /// `taskId`.
    pub task_id: String,
    /// `status` (`working`, `input_required`, `completed`, `failed`, `cancelled`, or another).
    pub status: String,
    /// `pollIntervalMs`, where it is a whole number.
    pub poll_interval_ms: Option<u64>,
}

/// The result types a tool call's answer can have.
pub(crate) enum ResultType<'a> {
    Complete,
    InputRequired,
    Task,
    Unknown(&'a str),
}

impl<'a> ResultType<'a> {
    /// `resultType` read: absent means complete, as for a server of an earlier revision.
    pub(crate) fn of(word: Option<&'a str>) -> Self {
        match word {
            None | Some("complete") => ResultType::Complete,
            Some("input_required") => ResultType::InputRequired,
            Some("task") => ResultType::Task,
            Some(other) => ResultType::Unknown(other),
        }
    }
}

/// The pending outcome of an answer whose `resultType` is `input_required` or `task`: `result`
/// is the result object (the JSON-RPC response's `result`, or the answer itself). `None` where
/// it lacks what that type needs (a task with no `taskId`, an input-required result with
/// neither requests nor state): the call failed.
pub(crate) fn pending_of(result: &Value, task: bool) -> Option<Pending> {
    let fields = result.as_object()?;
    if task {
        let task_id = fields.get("taskId")?.as_str()?.to_owned();
        let status = fields
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("working")
            .to_owned();
        let poll_interval_ms = fields.get("pollIntervalMs").and_then(Value::as_u64);
        return Some(Pending::Task(TaskHandle {
            task_id,
            status,
            poll_interval_ms,
        }));
    }
    let request_state = fields.get("requestState").and_then(Value::as_str).map(str::to_owned);
    let requests: Vec<InputRequest> = match fields.get("inputRequests") {
        Some(Value::Object(requests)) => requests
            .iter()
            .map(|(key, request)| InputRequest {
                key: key.clone(),
                method: request.get("method").and_then(Value::as_str).unwrap_or("").to_owned(),
                params: match request.get("params") {
                    Some(params @ Value::Object(_)) => params.clone(),
                    _ => Value::Object(Map::new()),
                },
            })
            .collect(),
        _ => Vec::new(),
    };
    (!requests.is_empty() || request_state.is_some()).then_some(Pending::InputRequired(InputRequired {
        requests,
        request_state,
    }))
}

/// What a bare answer of an input-required or task type asks (`task`: a task handle, else
/// input), read from its JSON once more: `None` where it lacks what that type needs.
pub(crate) fn pending_in(bytes: &[u8], task: bool) -> Result<Option<Pending>, Error> {
    Ok(pending_of(result_object(&crate::repair::parse_json(bytes)?), task))
}

/// The result object of an answer: a JSON-RPC response's `result`, or the answer itself.
pub(crate) fn result_object(answer: &Value) -> &Value {
    match answer.get("result") {
        Some(result) if answer.get("jsonrpc").is_some() || answer.get("id").is_some() => result,
        _ => answer,
    }
}

/// The longest number of input rounds one call takes before the host gives up: the bridges and
/// examples stop there, so a server that asks forever cannot hold a conversation.
pub const MAX_INPUT_ROUNDS: usize = 8;

impl InputRequired {
    /// The `tools/call` params that call the tool again: `name`, `arguments`, the host's
    /// `responses` as `inputResponses` (each request's answer under its key: an `ElicitResult`,
    /// a `CreateMessageResult`, a `ListRootsResult`), and `requestState` as it came.
    ///
    /// Fails (kind [`ErrorKind::InputResponses`]) where a request has no answer, or an answer no
    /// request: the server would refuse the call.
    ///
    /// ```
    /// use mcp_agent_view::{tool_result, Pending, ReferenceRegistry, Target};
    /// use serde_json::json;
    ///
    /// let answer = br#"{"resultType": "input_required", "requestState": "s1",
    ///     "inputRequests": {"who": {"method": "roots/list", "params": {}}}}"#;
    /// let result = tool_result(answer, "scan", "toolu_1", &ReferenceRegistry::new(), &Target::anthropic());
    /// let Some(Pending::InputRequired(asked)) = &result.pending else { panic!() };
    /// let mut responses = serde_json::Map::new();
    /// responses.insert("who".into(), json!({"roots": []}));
    /// let params = asked.retry_params("scan", &json!({}), responses)?;
    /// assert_eq!(params["requestState"], "s1");
    /// assert_eq!(params["inputResponses"]["who"], json!({"roots": []}));
    /// # Ok::<(), mcp_agent_view::Error>(())
    /// ```
    pub fn retry_params(&self, name: &str, arguments: &Value, responses: Map<String, Value>) -> Result<Value, Error> {
        if let Some(missing) = self.requests.iter().find(|r| !responses.contains_key(&r.key)) {
            return Err(Error::new(
                ErrorKind::InputResponses,
                format!("no answer to the input request {:?}", missing.key),
            ));
        }
        if let Some(extra) = responses.keys().find(|k| !self.requests.iter().any(|r| &r.key == *k)) {
            return Err(Error::new(
                ErrorKind::InputResponses,
                format!("an answer to no input request: {extra:?}"),
            ));
        }
        let mut params = Map::new();
        params.insert("name".to_owned(), Value::String(name.to_owned()));
        params.insert("arguments".to_owned(), arguments.clone());
        params.insert("inputResponses".to_owned(), Value::Object(responses));
        if let Some(state) = &self.request_state {
            params.insert("requestState".to_owned(), Value::String(state.clone()));
        }
        Ok(Value::Object(params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn requests_come_in_key_order_with_their_params() {
        let result = json!({"resultType": "input_required", "inputRequests": {
            "b": {"method": "elicitation/create", "params": {"message": "m"}},
            "a": {"method": "roots/list"}}});
        let Some(Pending::InputRequired(asked)) = pending_of(&result, false) else {
            panic!("no input required")
        };
        let keys: Vec<_> = asked
            .requests
            .iter()
            .map(|r| (r.key.as_str(), r.method.as_str()))
            .collect();
        assert_eq!(keys, [("a", "roots/list"), ("b", "elicitation/create")]);
        assert_eq!(asked.requests[0].params, json!({}));
        assert_eq!(asked.requests[1].params, json!({"message": "m"}));
        assert_eq!(asked.request_state, None);
    }

    #[test]
    fn state_alone_is_input_required_and_nothing_at_all_is_not() {
        let state = pending_of(&json!({"requestState": "x"}), false);
        assert!(
            matches!(state, Some(Pending::InputRequired(InputRequired { ref requests, .. })) if requests.is_empty())
        );
        assert_eq!(pending_of(&json!({"inputRequests": {}}), false), None);
        assert_eq!(pending_of(&json!([]), false), None);
    }

    #[test]
    fn a_task_needs_its_id() {
        let task = pending_of(
            &json!({"taskId": "t1", "status": "working", "pollIntervalMs": 500}),
            true,
        );
        assert_eq!(
            task,
            Some(Pending::Task(TaskHandle {
                task_id: "t1".into(),
                status: "working".into(),
                poll_interval_ms: Some(500)
            }))
        );
        assert_eq!(pending_of(&json!({"status": "working"}), true), None);
    }

    #[test]
    fn a_retry_answers_every_request_and_no_other() {
        let asked = InputRequired {
            requests: vec![InputRequest {
                key: "k".into(),
                method: "roots/list".into(),
                params: json!({}),
            }],
            request_state: None,
        };
        assert_eq!(
            asked.retry_params("t", &json!({}), Map::new()).unwrap_err().kind(),
            ErrorKind::InputResponses
        );
        let mut extra = Map::new();
        extra.insert("k".into(), json!({"roots": []}));
        extra.insert("j".into(), json!({}));
        assert_eq!(
            asked.retry_params("t", &json!({}), extra).unwrap_err().kind(),
            ErrorKind::InputResponses
        );
        let mut answer = Map::new();
        answer.insert("k".into(), json!({"roots": []}));
        let params = asked.retry_params("t", &json!({"a": 1}), answer).unwrap();
        assert_eq!(
            params,
            json!({"name": "t", "arguments": {"a": 1}, "inputResponses": {"k": {"roots": []}}})
        );
    }

    #[test]
    fn result_object_reads_a_response_or_the_result() {
        assert_eq!(
            result_object(&json!({"jsonrpc": "2.0", "id": 1, "result": {"a": 1}})),
            &json!({"a": 1})
        );
        assert_eq!(
            result_object(&json!({"result": 1, "x": 2})),
            &json!({"result": 1, "x": 2})
        );
    }
}
