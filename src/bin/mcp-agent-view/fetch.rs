//! `mcp-agent-view fetch`: a message's references registered as the lanes register them,
//! fetched under a policy, and what the model reads before and after, as one JSON object.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use mcp_agent_view::fetch::{FetchPolicy, FetchSettings, Fetcher, Refusal, DEFAULT_MAX_BYTES, TOOL_NAME};
use mcp_agent_view::reference::{ReferenceRecord, RegistrySnapshot};
use mcp_agent_view::{convert, history, HistoryOptions, Message, Provenance, ReferenceRegistry, Target};
use serde_json::{json, Map, Value};

#[derive(Args)]
pub(crate) struct FetchArgs {
    /// The message to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Seed the reference ids (the same ids as the history lane with the same seed).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// A provenance to show the history lane under; may be given more than once [default:
    /// tool-result]. `history` is the first.
    #[arg(long, value_enum, value_name = "P")]
    provenance: Vec<Provenance>,
    /// Fetch only this reference id; may be given more than once. Every one gets an entry in
    /// `fetches`.
    #[arg(long = "ref", value_name = "ID")]
    refs: Vec<String>,
    /// Fetch nothing: show the references and their records.
    #[arg(long)]
    no_fetch: bool,
    /// The ceiling on the decoded bytes of one fetch.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_BYTES)]
    max_bytes: u64,
    /// The origin the connection was dialed to: the one that gets the credential, from any
    /// address.
    #[arg(long, value_name = "ORIGIN")]
    origin: Option<String>,
    /// The environment variable that holds the connection's bearer credential (sent to
    /// --origin only).
    #[arg(long, value_name = "VAR", requires = "origin")]
    bearer_env: Option<String>,
    /// A scheme to allow besides https (http, data, …); may be given more than once. `file`
    /// is allowed only by --allow-files-under.
    #[arg(long, value_name = "S")]
    allow_scheme: Vec<String>,
    /// Allow `file:` references to regular files beneath DIR (through no symlink or `..`),
    /// and nowhere else.
    #[arg(long, value_name = "DIR")]
    allow_files_under: Option<PathBuf>,
    /// Allow a file with more than one link under --allow-files-under (refused by default).
    #[arg(long, requires = "allow_files_under")]
    allow_hard_links: bool,
    /// An origin to allow whose addresses are not public; may be given more than once.
    #[arg(long, value_name = "O")]
    allow_origin: Vec<String>,
    /// Save verified bytes here, as `<ref id>.<extension>` (the directory must exist).
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    /// The timeout of one fetch, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    timeout: f64,
}

pub(crate) fn run(args: &FetchArgs) -> Result<String, String> {
    let policy = policy(args)?;
    if let Some(dir) = &args.save_dir {
        if !dir.is_dir() {
            return Err(format!("--save-dir {}: no such directory", dir.display()));
        }
    }
    let bytes = crate::read_input(args.file.as_deref())?;
    let message = Message::parse(&bytes).map_err(|e| e.to_string())?;
    let registry = args
        .seed
        .map_or_else(ReferenceRegistry::new, ReferenceRegistry::with_seed)
        .with_fetch_tool(TOOL_NAME)
        .map_err(|e| e.to_string())?;
    let provenances = if args.provenance.is_empty() {
        vec![Provenance::ToolResult]
    } else {
        args.provenance.clone()
    };
    // Registered once, by the first view; every other view is rendered from the registry as
    // it stood before, so that each shows the ids the records name, eviction or not.
    let before = views(&message, Some(&registry), &registry.snapshot(), &provenances)?;

    let mut host = Fetcher::new(policy);
    if let Some(dir) = &args.save_dir {
        host = host.save_dir(dir);
    }
    let held: Vec<String> = registry.records().into_iter().map(|r| r.id).collect();
    let wanted = if args.refs.is_empty() {
        held.clone()
    } else {
        args.refs.clone()
    };
    let mut fetches = Vec::new();
    if !(args.no_fetch && args.refs.is_empty()) {
        for id in &wanted {
            let outcome = if args.no_fetch {
                Err(if held.contains(id) {
                    Refusal::NotFetched
                } else {
                    Refusal::UnknownReference
                })
            } else {
                host.fetch(&registry, id)
            };
            fetches.push(match outcome {
                Ok(done) => {
                    let verified = done.verified();
                    json!({"id": id, "ok": true, "error": null, "bytes": verified.bytes,
                        "mimeType": verified.mime_type, "digestVerified": verified.digest_verified,
                        "path": verified.path})
                }
                Err(refusal) => json!({"id": id, "ok": false, "error": refusal.to_string(), "bytes": null,
                    "mimeType": null, "digestVerified": null, "path": null}),
            });
        }
    }
    let after = views(&message, None, &registry.snapshot(), &provenances)?;
    let records: Vec<Value> = registry.records().iter().map(record_json).collect();
    let out = json!({"before": before, "after": after, "records": records, "fetches": fetches});
    serde_json::to_string_pretty(&out)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}

/// The flags as the crate's one settings type, each flag its field; the checks are
/// [`FetchSettings::policy`]'s, and only what a flag reads from the machine (a directory, a
/// variable) or writes as a number the settings take otherwise is checked here.
fn policy(args: &FetchArgs) -> Result<FetchPolicy, String> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(format!("--timeout {}: not a positive number of seconds", args.timeout));
    }
    if let Some(dir) = args.allow_files_under.as_deref().filter(|dir| !dir.is_dir()) {
        return Err(format!("--allow-files-under {}: no such directory", dir.display()));
    }
    let bearer = match &args.bearer_env {
        Some(var) => Some(std::env::var(var).map_err(|_| format!("--bearer-env {var}: the variable is not set"))?),
        None => None,
    };
    let mut settings = FetchSettings::default();
    settings.max_bytes = args.max_bytes;
    settings.timeout = Duration::from_secs_f64(args.timeout.min(86_400.0));
    settings.allow_schemes.clone_from(&args.allow_scheme);
    settings.allow_files_under.clone_from(&args.allow_files_under);
    settings.allow_hard_links = args.allow_hard_links;
    settings.allow_origins.clone_from(&args.allow_origin);
    settings.origin.clone_from(&args.origin);
    settings.bearer = bearer;
    settings.policy().map_err(|e| flagged(&settings, &e))
}

/// A settings error named by the flag whose value it is: each flag that can fail is checked
/// alone, with the directory it goes with.
fn flagged(settings: &FetchSettings, e: &mcp_agent_view::Error) -> String {
    let alone = |set: &dyn Fn(&mut FetchSettings)| {
        let mut one = FetchSettings::default();
        one.allow_files_under.clone_from(&settings.allow_files_under);
        set(&mut one);
        one.policy().is_err()
    };
    if let Some(scheme) = settings
        .allow_schemes
        .iter()
        .find(|scheme| alone(&|one| one.allow_schemes = vec![(*scheme).clone()]))
    {
        if scheme.eq_ignore_ascii_case("file") {
            return "--allow-scheme file: files are allowed only under a directory: use --allow-files-under DIR"
                .to_owned();
        }
        return format!("--allow-scheme: {e}");
    }
    if alone(&|one| one.allow_origins.clone_from(&settings.allow_origins)) {
        return format!("--allow-origin: {e}");
    }
    if alone(&|one| one.origin.clone_from(&settings.origin)) {
        return format!("--origin: {e}");
    }
    e.to_string()
}

/// What the model reads: the history lane under each provenance, and the neutral blocks lane.
/// `first`, where given, registers the references as the first view shows them; every other
/// view reads a registry restored from `snapshot`, the registry as it stood before, and
/// registers nothing in the one the records come from.
fn views(
    message: &Message<'_>,
    first: Option<&ReferenceRegistry>,
    snapshot: &RegistrySnapshot,
    provenances: &[Provenance],
) -> Result<Value, String> {
    let copy = || {
        ReferenceRegistry::restore(snapshot)
            .and_then(|r| r.with_fetch_tool(TOOL_NAME))
            .map_err(|e| e.to_string())
    };
    let mut histories = Map::new();
    let mut shown = None;
    for (n, &provenance) in provenances.iter().enumerate() {
        let options = HistoryOptions {
            provenance,
            budget: None,
        };
        let name = provenance
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned());
        // A decoded message never fails a lane.
        let text = match first.filter(|_| n == 0) {
            Some(registry) => history(message, registry, &options),
            None => history(message, &copy()?, &options),
        }
        .unwrap_or_default();
        shown.get_or_insert_with(|| text.clone());
        histories.insert(name, Value::String(text));
    }
    let target = Target::neutral();
    let blocks = convert(message, provenances[0], &copy()?, &target)
        .map(|c| c.content)
        .unwrap_or_default();
    Ok(json!({"history": shown, "histories": histories, "blocks": target.blocks_json(&blocks)}))
}

/// The host-private view of a record: the one place the CLI prints a uri.
fn record_json(record: &ReferenceRecord) -> Value {
    json!({
        "id": record.id,
        "uri": record.uri,
        "name": record.name,
        "mimeType": record.mime_type,
        "sizeBytes": record.size_bytes,
        "disposition": record.disposition,
        "expiresAt": record.expires_at,
        "digest": record.digest,
        "verified": record.verified.as_ref().map(|v| json!({
            "bytes": v.bytes, "mimeType": v.mime_type, "digestVerified": v.digest_verified, "path": v.path,
        })),
    })
}
