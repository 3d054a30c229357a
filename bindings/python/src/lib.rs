//! `mcp_agent_view._native`: the crate's lanes for Python. The package `mcp_agent_view`
//! re-exports it with its types (`python/mcp_agent_view`).
//!
//! Every message is read as JSON bytes this module owns (text, bytes, or a JSON-compatible
//! object written out by Python's `json`); the lane runs with the interpreter detached, and
//! its JSON comes back through Python's `json`. No panic crosses into Python: each call is
//! caught and surfaces as `Error`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use std::time::Duration;

use mcp_agent_view::fetch::{self, FetchPolicy, FetchSettings};
use mcp_agent_view::provider::{AudioFormat, ImageFormat};
use mcp_agent_view::{
    classify, convert, elicitation, history, prompt_messages, sampling_request, script, tool_call_failed, tool_result,
    AgentToolResult, HistoryOptions, Pending, Provenance, Provider, ReferenceRegistry, Target,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyList, PyMemoryView, PyString, PyTuple};
use serde_json::Value;

// Named for the package it is imported from, so that an error pickles (a process pool's
// worker sends its errors back pickled).
create_exception!(
    mcp_agent_view,
    Error,
    PyValueError,
    "A message this package cannot read, or an argument it cannot take. `.kind` names the \
     Rust `ErrorKind` (`\"Json\"`, `\"UnrecognizedMessage\"`, `\"UnknownReference\"`, …); \
     `.line` and `.column` are set for `\"Json\"`."
);

/// `Error` from the crate's error.
fn error(py: Python<'_>, e: &mcp_agent_view::Error) -> PyErr {
    raised(py, &format!("{:?}", e.kind()), &e.to_string(), e.line(), e.column())
}

fn raised(py: Python<'_>, kind: &str, message: &str, line: Option<usize>, column: Option<usize>) -> PyErr {
    let err = Error::new_err(message.to_owned());
    let value = err.value(py);
    let _ = value.setattr("kind", kind);
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    err
}

/// Runs `f` with the interpreter detached, a panic in it an `Error` of kind `"Panic"`.
fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(f))).map_err(|_| {
        raised(
            py,
            "Panic",
            "internal error: the lane panicked (a defect; please report it)",
            None,
            None,
        )
    })
}

/// The JSON bytes of a message: `str`, `bytes` (or `bytearray`, `memoryview`), a pydantic
/// model of the official SDK (its JSON, by alias), or any JSON-compatible object.
fn json_bytes(message: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    // A lone surrogate (which no UTF-8 holds) is read as U+FFFD, as the core reads an
    // escaped one: never an encoding error.
    if let Ok(text) = message.cast::<PyString>() {
        return Ok(lossless_or_replaced(text)?.into_bytes());
    }
    if let Ok(bytes) = message.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    // The other bytes-like types a socket or file is read into.
    if let Ok(bytes) = message.cast::<PyByteArray>() {
        return Ok(bytes.to_vec());
    }
    if message.is_instance_of::<PyMemoryView>() {
        return Ok(message.call_method0("tobytes")?.cast::<PyBytes>()?.as_bytes().to_vec());
    }
    let py = message.py();
    if message.hasattr("model_dump_json")? {
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("by_alias", true)?;
        kwargs.set_item("exclude_none", true)?;
        let text = message.call_method("model_dump_json", (), Some(&kwargs))?;
        return Ok(lossless_or_replaced(text.cast::<PyString>()?)?.into_bytes());
    }
    let json = py.import("json")?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("ensure_ascii", false)?;
    let text = json.call_method("dumps", (message,), Some(&kwargs))?;
    Ok(lossless_or_replaced(text.cast::<PyString>()?)?.into_bytes())
}

/// A Python string as UTF-8, each lone surrogate (which no UTF-8 holds) one U+FFFD.
fn lossless_or_replaced(text: &Bound<'_, PyString>) -> PyResult<String> {
    if let Ok(text) = text.extract::<String>() {
        return Ok(text);
    }
    let units = text.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
    let bytes = units.cast::<PyBytes>()?.as_bytes();
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|u| u16::from_le_bytes([u[0], u[1]]))
        .collect();
    Ok(String::from_utf16_lossy(&units))
}

/// A JSON value as the Python object `json.loads` makes of it, built directly.
/// A message (its JSON text, its bytes, or a JSON-serializable object) as a `Value`.
fn value_of(py: Python<'_>, message: &Bound<'_, PyAny>) -> PyResult<Value> {
    let bytes = json_bytes(message)?;
    mcp_agent_view::parse_json(&bytes).map_err(|e| error(py, &e))
}

fn to_python(py: Python<'_>, value: &impl serde::Serialize) -> PyResult<Py<PyAny>> {
    let value = serde_json::to_value(value).map_err(|e| raised(py, "Json", &e.to_string(), None, None))?;
    objects_of(py, value).map(Bound::unbind)
}

/// The Python objects `json.loads` would make of the JSON `d` reads (a `Value`, or text).
fn objects_of<'de, 'py, D: serde::Deserializer<'de>>(py: Python<'py>, d: D) -> PyResult<Bound<'py, PyAny>> {
    let failed = std::cell::RefCell::new(None);
    serde::de::DeserializeSeed::deserialize(Objects { py, failed: &failed }, d).map_err(|e| {
        failed
            .into_inner()
            .unwrap_or_else(|| raised(py, "Json", &e.to_string(), None, None))
    })
}

/// The target a name gives; an unknown name is a `ValueError` listing the known ones.
fn target_of(name: &str) -> PyResult<Target> {
    provider_of(name).map(Target::for_provider)
}

/// The target a `target=` argument gives: a provider's name, or a mapping that starts from a
/// provider's defaults (`"provider"`, neutral when absent) and changes what goes out as media:
/// `"images"` and `"audio"` (lists of media types the target takes), `"pdf"` (bool), and
/// `"max_image_bytes"`, `"max_audio_bytes"`, `"max_pdf_bytes"` (int, or `None` for no limit).
/// Absent, the function's `default`. Anything else is a `TypeError` or `ValueError` naming it.
fn target_arg(target: Option<&Bound<'_, PyAny>>, default: &str) -> PyResult<Target> {
    let Some(target) = target.filter(|t| !t.is_none()) else {
        return target_of(default);
    };
    if let Ok(name) = target.cast::<PyString>() {
        return target_of(&name.extract::<String>()?);
    }
    let Ok(spec) = target.cast::<PyDict>() else {
        return Err(PyTypeError::new_err(
            "target is a provider's name or a dict of what it sends",
        ));
    };
    let provider = match spec.get_item("provider")? {
        Some(name) => provider_of(
            &name
                .extract::<String>()
                .map_err(|_| PyTypeError::new_err("target[\"provider\"] is a str"))?,
        )?,
        None => Provider::Neutral,
    };
    let mut out = Target::for_provider(provider);
    for (key, value) in spec.iter() {
        let key: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("target's keys are str"))?;
        let limit = |value: &Bound<'_, PyAny>| -> PyResult<Option<u64>> {
            if value.is_none() {
                return Ok(None);
            }
            value
                .extract::<u64>()
                .map(Some)
                .map_err(|_| PyValueError::new_err(format!("target[{key:?}] is an int from 0 to 2**64-1, or None")))
        };
        match key.as_str() {
            "provider" => {}
            "images" => out.images = formats(&key, &value, &ImageFormat::ALL, |f| f.mime_type())?,
            "audio" => out.audio = formats(&key, &value, &AudioFormat::ALL, |f| f.mime_type())?,
            "pdf" => {
                out.pdf = value
                    .cast::<PyBool>()
                    .map_err(|_| PyTypeError::new_err("target[\"pdf\"] is a bool"))?
                    .is_true();
            }
            "max_image_bytes" => out.max_image_bytes = limit(&value)?,
            "max_audio_bytes" => out.max_audio_bytes = limit(&value)?,
            "max_pdf_bytes" => out.max_pdf_bytes = limit(&value)?,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "target has no key {key:?}: it takes provider, images, audio, pdf, max_image_bytes, \
                     max_audio_bytes, max_pdf_bytes"
                )))
            }
        }
    }
    Ok(out)
}

/// The formats a list of media types names, each one of `all` (by `mime`).
fn formats<F: Copy>(
    key: &str,
    value: &Bound<'_, PyAny>,
    all: &[F],
    mime: impl Fn(F) -> &'static str,
) -> PyResult<Vec<F>> {
    let names: Vec<String> = value
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("target[{key:?}] is a list of media types")))?;
    names
        .iter()
        .map(|name| {
            all.iter().copied().find(|f| mime(*f) == name).ok_or_else(|| {
                let known: Vec<&str> = all.iter().map(|f| mime(*f)).collect();
                PyValueError::new_err(format!("target[{key:?}]: {name:?} is none of {}", known.join(", ")))
            })
        })
        .collect()
}

/// The provider a name gives; an unknown name is an `Error` (a `ValueError`) of kind
/// `UnknownProvider`, listing the known ones.
fn provider_of(name: &str) -> PyResult<Provider> {
    name.parse::<Provider>().map_err(|e| Python::attach(|py| error(py, &e)))
}

/// The provenance a name gives; an unknown name is an `Error` of kind `UnknownProvenance`.
fn provenance_of(name: &str) -> PyResult<Provenance> {
    name.parse::<Provenance>()
        .map_err(|e| Python::attach(|py| error(py, &e)))
}

/// The references of one conversation: each stub's id maps back to its uri here. Safe to
/// share between threads.
#[pyclass(module = "mcp_agent_view", frozen)]
struct Registry(ReferenceRegistry);

#[pymethods]
impl Registry {
    #[new]
    #[pyo3(signature = (seed=None, *, fetch_tool=None))]
    fn new(py: Python<'_>, seed: Option<u64>, fetch_tool: Option<&str>) -> PyResult<Self> {
        let registry = seed.map_or_else(ReferenceRegistry::new, ReferenceRegistry::with_seed);
        match fetch_tool {
            None => Ok(Registry(registry)),
            Some(name) => registry.with_fetch_tool(name).map(Registry).map_err(|e| error(py, &e)),
        }
    }

    /// The name stubs tell the model to fetch with, where one was given.
    #[getter]
    fn fetch_tool(&self) -> Option<&str> {
        self.0.fetch_tool()
    }

    /// The record behind a stub's id, as the crate's `ReferenceRecord` serializes: `id`,
    /// `uri`, `source`, `name`, `mimeType`, `sizeBytes`, `disposition`, `expiresAt`, `digest`,
    /// `verified`, `connection`. An id never issued, or evicted, is
    /// an `Error` that says `unknown reference`.
    fn lookup(&self, py: Python<'_>, id: &str) -> PyResult<Py<PyAny>> {
        let record = self.0.lookup(id).map_err(|e| error(py, &e))?;
        to_python(py, &record)
    }

    /// The registry as a JSON-serializable dict, for `Registry.restore`.
    fn snapshot(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.0.snapshot())
    }

    /// The registry a snapshot was taken of.
    #[staticmethod]
    fn restore(py: Python<'_>, snapshot: &Bound<'_, PyAny>) -> PyResult<Registry> {
        let bytes = json_bytes(snapshot)?;
        let snapshot =
            serde_json::from_slice(&bytes).map_err(|e| raised(py, "Snapshot", &e.to_string(), None, None))?;
        ReferenceRegistry::restore(&snapshot)
            .map(Registry)
            .map_err(|e| error(py, &e))
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }
}

/// One string for the conversation history.
#[pyfunction]
#[pyo3(signature = (message, registry, *, budget=None, provenance="tool-result"))]
fn history_text(
    py: Python<'_>,
    message: &Bound<'_, PyAny>,
    registry: &Registry,
    budget: Option<usize>,
    provenance: &str,
) -> PyResult<String> {
    let bytes = json_bytes(message)?;
    let options = HistoryOptions {
        provenance: provenance_of(provenance)?,
        budget,
    };
    detached(py, || history(&bytes[..], &registry.0, &options))?.map_err(|e| error(py, &e))
}

/// Every block converted: `(content, held_for_user)`, the content in the target's shape.
#[pyfunction]
#[pyo3(signature = (message, registry, *, target=None, provenance="push-event"))]
fn convert_blocks(
    py: Python<'_>,
    message: &Bound<'_, PyAny>,
    registry: &Registry,
    target: Option<&Bound<'_, PyAny>>,
    provenance: &str,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let bytes = json_bytes(message)?;
    let target = target_arg(target, "neutral")?;
    let provenance = provenance_of(provenance)?;
    let shown = detached(py, || {
        convert(&bytes[..], provenance, &registry.0, &target).map(|c| {
            (
                Value::Array(target.blocks_json(&c.content).as_array().cloned().unwrap_or_default()),
                Target::neutral().blocks_json(&c.held_for_user),
            )
        })
    })?
    .map_err(|e| error(py, &e))?;
    Ok((to_python(py, &shown.0)?, to_python(py, &shown.1)?))
}

/// A script's JSON result with every block replaced, as a JSON value.
#[pyfunction]
#[pyo3(name = "script", signature = (message, registry, *, target=None))]
fn script_value(
    py: Python<'_>,
    message: &Bound<'_, PyAny>,
    registry: &Registry,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let bytes = json_bytes(message)?;
    let target = target_arg(target, "neutral")?;
    let text = detached(py, || script(&bytes[..], &registry.0, &target))?.map_err(|e| error(py, &e))?;
    drop(bytes);
    // The lane's JSON text straight into Python objects, with no `Value` between: the peak is
    // the text and the objects, as `json.loads` of the text would have it.
    objects_of(py, &mut serde_json::Deserializer::from_str(&text)).map(Bound::unbind)
}

/// Builds the Python objects `json.loads` would of the JSON it reads; a Python error is kept
/// in `failed`.
#[derive(Clone, Copy)]
struct Objects<'a, 'py> {
    py: Python<'py>,
    failed: &'a std::cell::RefCell<Option<PyErr>>,
}

impl<'py> Objects<'_, 'py> {
    fn made<E: serde::de::Error>(self, made: PyResult<Bound<'py, PyAny>>) -> Result<Bound<'py, PyAny>, E> {
        made.map_err(|e| {
            let message = e.to_string();
            self.failed.borrow_mut().get_or_insert(e);
            E::custom(message)
        })
    }
}

impl<'de, 'py> serde::de::DeserializeSeed<'de> for Objects<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'py> serde::de::Visitor<'de> for Objects<'_, 'py> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(PyBool::new(self.py, b).to_owned().into_any())
    }
    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Self::Value, E> {
        self.made(n.into_pyobject(self.py).map(Bound::into_any).map_err(Into::into))
    }
    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Self::Value, E> {
        self.made(n.into_pyobject(self.py).map(Bound::into_any).map_err(Into::into))
    }
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Self::Value, E> {
        self.made(n.into_pyobject(self.py).map(Bound::into_any).map_err(Into::into))
    }
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(PyString::new(self.py, text).into_any())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let list = PyList::empty(self.py);
        while let Some(item) = seq.next_element_seed(self)? {
            self.made(list.append(item).map(|()| list.clone().into_any()))?;
        }
        Ok(list.into_any())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let dict = PyDict::new(self.py);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let item = map.next_value_seed(self)?;
            self.made(dict.set_item(&*key, item).map(|()| dict.clone().into_any()))?;
        }
        Ok(dict.into_any())
    }
}

/// The tool result the model reads for one call.
#[pyclass(module = "mcp_agent_view", frozen)]
struct ToolResult {
    result: AgentToolResult<'static>,
    target: Target,
}

#[pymethods]
impl ToolResult {
    /// The id of the `tool_use` this result answers.
    #[getter]
    fn tool_use_id(&self) -> &str {
        &self.result.tool_use_id
    }

    /// The tool's name.
    #[getter]
    fn name(&self) -> &str {
        &self.result.name
    }

    /// Whether the call failed.
    #[getter]
    fn is_error(&self) -> bool {
        self.result.is_error
    }

    /// What the model reads, as blocks in the target's shape.
    #[getter]
    fn content(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.target.blocks_json(&self.result.content))
    }

    /// The blocks held back for the user, in the neutral shape.
    #[getter]
    fn held_for_user(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &Target::neutral().blocks_json(&self.result.held_for_user))
    }

    /// What the server asked instead of a result, or `None`: `{"kind": "input_required",
    /// "requests": [{"key", "method", "params"}], "requestState"}` or `{"kind": "task",
    /// "taskId", "status", "pollIntervalMs"}`.
    #[getter]
    fn pending(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.result.pending {
            Some(pending) => to_python(py, pending),
            None => Ok(py.None()),
        }
    }

    /// The `tools/call` params that call the tool again with the host's answers (`responses`:
    /// each request's result under its key) and the server's `requestState`. Raises `Error`
    /// (kind `InputResponses`) where they do not answer the requests one to one, or the result
    /// asked for no input.
    fn retry_params(
        &self,
        py: Python<'_>,
        arguments: &Bound<'_, PyAny>,
        responses: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let Some(Pending::InputRequired(asked)) = &self.result.pending else {
            return Err(raised(
                py,
                "InputResponses",
                "this result asks for no input",
                None,
                None,
            ));
        };
        let arguments = value_of(py, arguments)?;
        let Value::Object(responses) = value_of(py, responses)? else {
            return Err(PyTypeError::new_err(
                "responses is a dict of each request's result by its key",
            ));
        };
        let params = asked
            .retry_params(&self.result.name, &arguments, responses)
            .map_err(|e| error(py, &e))?;
        to_python(py, &params)
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolResult(tool_use_id={:?}, name={:?}, is_error={}, blocks={})",
            self.result.tool_use_id,
            self.result.name,
            if self.result.is_error { "True" } else { "False" },
            self.result.content.len()
        )
    }
}

/// The outcome of one `tools/call` as the tool result the model reads. Never fails on the
/// message: an answer that is no JSON or no MCP message is a failed call.
#[pyfunction]
#[pyo3(name = "tool_result", signature = (message, name, tool_use_id, registry, *, target=None))]
fn tool_result_of(
    py: Python<'_>,
    message: &Bound<'_, PyAny>,
    name: &str,
    tool_use_id: &str,
    registry: &Registry,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<ToolResult> {
    let bytes = json_bytes(message)?;
    let target = target_arg(target, "anthropic")?;
    let result = detached(py, || {
        tool_result(&bytes[..], name, tool_use_id, &registry.0, &target).into_owned()
    })?;
    Ok(ToolResult { result, target })
}

/// The tool result of a call that failed before any answer arrived.
#[pyfunction]
#[pyo3(name = "tool_call_failed", signature = (name, tool_use_id, error, *, target=None))]
fn tool_call_failed_of(
    name: &str,
    tool_use_id: &str,
    error: &str,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<ToolResult> {
    Ok(ToolResult {
        result: tool_call_failed(name, tool_use_id, error),
        target: target_arg(target, "anthropic")?,
    })
}

/// Everything one turn's tool results add to the conversation, in the target's shape.
#[pyfunction]
#[pyo3(signature = (results, *, target=None))]
fn tool_result_messages(
    py: Python<'_>,
    results: Vec<PyRef<'_, ToolResult>>,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let target = target_arg(target, "anthropic")?;
    let results: Vec<AgentToolResult<'static>> = results.iter().map(|r| r.result.clone()).collect();
    to_python(py, &target.tool_result_messages(&results))
}

/// A `sampling/createMessage` request (its params, the request or the JSON-RPC request) as the
/// host's own model reads it: `{"messages" (the target's shape), "systemPrompt", "maxTokens",
/// …}`, each field the request had.
#[pyfunction]
#[pyo3(name = "sampling_request", signature = (message, registry, *, target=None))]
fn sampling_request_of(
    py: Python<'_>,
    message: &Bound<'_, PyAny>,
    registry: &Registry,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let bytes = json_bytes(message)?;
    let target = target_arg(target, "neutral")?;
    let request = detached(py, || {
        sampling_request(&bytes[..], &registry.0, &target).map(|r| r.to_json(&target))
    })?
    .map_err(|e| error(py, &e))?;
    to_python(py, &request)
}

/// An `elicitation/create` request's words cleaned for the person it asks.
#[pyfunction]
#[pyo3(name = "elicitation")]
fn elicitation_of(py: Python<'_>, message: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let request = value_of(py, message)?;
    let asked = elicitation(&request).map_err(|e| error(py, &e))?;
    to_python(py, &asked)
}

/// A prompt's messages in the target's shape.
#[pyfunction]
#[pyo3(name = "prompt_messages", signature = (message, registry, *, target=None))]
fn prompt_messages_of(
    py: Python<'_>,
    message: &Bound<'_, PyAny>,
    registry: &Registry,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let bytes = json_bytes(message)?;
    let target = target_arg(target, "neutral")?;
    let messages = detached(py, || {
        prompt_messages(&bytes[..], &registry.0, &target).map(|m| target.messages_json(&m))
    })?
    .map_err(|e| error(py, &e))?;
    to_python(py, &messages)
}

/// Every block's class and the fields that decided it, a dict a block.
#[pyfunction]
#[pyo3(name = "classify")]
fn classify_all(py: Python<'_>, message: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let bytes = json_bytes(message)?;
    let all = detached(py, || {
        let mut all = Vec::new();
        classify::summarize(&bytes[..], |summary| all.push(serde_json::to_value(summary)))
            .map(|()| all.into_iter().collect::<Result<Vec<Value>, _>>())
    })?
    .map_err(|e| error(py, &e))?
    .map_err(|e| raised(py, "Json", &e.to_string(), None, None))?;
    to_python(py, &all)
}

/// MCP tools (dicts as `tools/list` gives them) as the target's tool definitions.
#[pyfunction]
#[pyo3(signature = (tools, *, target=None))]
fn tool_definitions(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let target = target_arg(target, "anthropic")?;
    let mut out = Vec::new();
    for tool in tools.try_iter()? {
        let tool: Value =
            serde_json::from_slice(&json_bytes(&tool?)?).map_err(|e| raised(py, "Json", &e.to_string(), None, None))?;
        let definition = target
            .mcp_tool_definition(&tool)
            .ok_or_else(|| PyValueError::new_err("a tool without a name"))?;
        out.push(definition);
    }
    to_python(py, &out)
}

/// The fetch tool's definition in the target's shape.
#[pyfunction]
#[pyo3(signature = (target=None, name=fetch::TOOL_NAME))]
fn fetch_tool_definition(py: Python<'_>, target: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Py<PyAny>> {
    to_python(
        py,
        &fetch::tool_definition(target_arg(target, "anthropic")?.provider, name),
    )
}

/// What a fetch may do: the crate's `FetchPolicy`, its settings as keyword arguments.
#[pyclass(module = "mcp_agent_view.fetch", name = "Policy", frozen)]
struct Policy(FetchPolicy);

#[pymethods]
impl Policy {
    #[new]
    #[pyo3(signature = (
        *,
        max_bytes=fetch::DEFAULT_MAX_BYTES,
        allow_schemes=Vec::new(),
        origin=None,
        bearer=None,
        allow_origins=Vec::new(),
        timeout=30.0,
        max_redirects=3,
        cross_origin_redirects=true,
        allow_files_under=None,
        allow_hard_links=false,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        max_bytes: u64,
        allow_schemes: Vec<String>,
        origin: Option<&str>,
        bearer: Option<&str>,
        allow_origins: Vec<String>,
        timeout: f64,
        max_redirects: u8,
        cross_origin_redirects: bool,
        allow_files_under: Option<std::path::PathBuf>,
        allow_hard_links: bool,
    ) -> PyResult<Self> {
        let timeout = Duration::try_from_secs_f64(timeout)
            .map_err(|_| PyValueError::new_err("timeout is a number of seconds, 0 or more"))?;
        let mut settings = FetchSettings::default();
        settings.max_bytes = max_bytes;
        settings.allow_schemes = allow_schemes;
        settings.origin = origin.map(str::to_owned);
        settings.bearer = bearer.map(str::to_owned);
        settings.allow_origins = allow_origins;
        settings.timeout = timeout;
        settings.max_redirects = max_redirects;
        settings.cross_origin_redirects = cross_origin_redirects;
        settings.allow_files_under = allow_files_under;
        settings.allow_hard_links = allow_hard_links;
        let policy = settings.policy().map_err(|e| error(py, &e))?;
        Ok(Policy(policy))
    }

    /// The ceiling on one fetch's decoded bytes.
    #[getter]
    fn max_bytes(&self) -> u64 {
        self.0.max_bytes_allowed()
    }

    fn __repr__(&self) -> String {
        // The credential is not printed.
        format!("Policy({:?})", self.0)
    }
}

/// Fetches references when the model calls the fetch tool, over the crate's HTTP(S)
/// transport (and files, where the policy names a directory).
#[pyclass(module = "mcp_agent_view.fetch", name = "Fetcher", frozen)]
struct PyFetcher {
    policy: FetchPolicy,
    save_dir: Option<std::path::PathBuf>,
}

#[pymethods]
impl PyFetcher {
    #[new]
    #[pyo3(signature = (policy=None, *, save_dir=None))]
    fn new(policy: Option<PyRef<'_, Policy>>, save_dir: Option<std::path::PathBuf>) -> Self {
        PyFetcher {
            policy: policy.map_or_else(FetchPolicy::new, |p| p.0.clone()),
            save_dir,
        }
    }

    /// Answers one fetch-tool call: `input` is the call's arguments (`{"ref_id": …}`, a dict
    /// or its JSON text). Never raises on what the fetch meets: a refusal is a failed call
    /// naming the reason, never the uri.
    #[pyo3(signature = (input, tool_use_id, registry, *, target=None))]
    fn fetch_reference(
        &self,
        py: Python<'_>,
        input: &Bound<'_, PyAny>,
        tool_use_id: &str,
        registry: &Registry,
        target: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ToolResult> {
        let bytes = json_bytes(input)?;
        let input = serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null);
        let target = target_arg(target, "anthropic")?;
        let result = detached(py, || {
            let mut fetcher = mcp_agent_view::fetch::Fetcher::new(self.policy.clone());
            if let Some(dir) = &self.save_dir {
                fetcher = fetcher.save_dir(dir);
            }
            fetch::fetch_reference(&input, tool_use_id, &registry.0, &fetcher, &target)
        })?;
        Ok(ToolResult { result, target })
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("MAX_INPUT_ROUNDS", mcp_agent_view::MAX_INPUT_ROUNDS)?;
    // The names of the crate's tables: what `target=` and `provenance=` take.
    m.add("TARGETS", PyTuple::new(m.py(), Provider::NAMES.map(|(_, name)| name))?)?;
    m.add(
        "PROVENANCES",
        PyTuple::new(m.py(), Provenance::NAMES.map(|(_, name)| name))?,
    )?;
    m.add_class::<Registry>()?;
    m.add_class::<ToolResult>()?;
    m.add_function(wrap_pyfunction!(history_text, m)?)?;
    m.add_function(wrap_pyfunction!(convert_blocks, m)?)?;
    m.add_function(wrap_pyfunction!(script_value, m)?)?;
    m.add_function(wrap_pyfunction!(tool_result_of, m)?)?;
    m.add_function(wrap_pyfunction!(tool_call_failed_of, m)?)?;
    m.add_function(wrap_pyfunction!(tool_result_messages, m)?)?;
    m.add_function(wrap_pyfunction!(prompt_messages_of, m)?)?;
    m.add_function(wrap_pyfunction!(sampling_request_of, m)?)?;
    m.add_function(wrap_pyfunction!(elicitation_of, m)?)?;
    m.add_function(wrap_pyfunction!(classify_all, m)?)?;
    m.add_function(wrap_pyfunction!(tool_definitions, m)?)?;
    m.add_class::<Policy>()?;
    m.add_class::<PyFetcher>()?;
    m.add_function(wrap_pyfunction!(fetch_tool_definition, m)?)?;
    Ok(())
}
