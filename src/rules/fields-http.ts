/**
 * The platform's HTTP scheme, field by field as its documentation lists them (custom rules,
 * firewall rules, WAF, transform rules). Row flags are explained in `fields.ts`.
 */
import { AS, B, I, IP, MAS, S, parseRow, type FieldInfo, type Row } from "./fields.js"

const geo = (suffix: string, what: string, flags = ""): ReadonlyArray<Row> => [
  [`ip.src.${suffix}`, suffix === "asnum" ? I : suffix === "is_in_european_union" ? B : S, what, flags]
]

const raw = (name: string, type: string, what: string, flags = ""): Row => [
  `raw.${name}`,
  type,
  `${what}, as received, before any rule changed it`,
  flags
]

const jwt = (claim: string, what: string, int = false): ReadonlyArray<Row> => [
  [
    `http.request.jwt.claims.${claim}`,
    int ? "Map<Array<Integer>>" : MAS,
    `JWT ${what} claim values, by JWT validation configuration`,
    "e+"
  ],
  [
    `http.request.jwt.claims.${claim}.names`,
    AS,
    `The JWT validation configurations that produced a ${what} claim`,
    "e+"
  ],
  [`http.request.jwt.claims.${claim}.values`, int ? "Array<Integer>" : AS, `The JWT ${what} claim values`, "e+"]
]

const mtls = (suffix: string, what: string): Row => [
  `cf.tls_client_auth.${suffix}`,
  S,
  `${what} of the mTLS client certificate ("" without mTLS)`
]

const HTTP_ROWS: ReadonlyArray<Row> = [
  // Request line and URI
  ["http.host", S, "The Host of the original request, as the client sent it"],
  ["http.request.method", S, "The HTTP method, in uppercase (GET, POST, ...)"],
  ["http.request.version", S, 'The HTTP version, e.g. "HTTP/1.1" or "HTTP/3"'],
  ["http.request.full_uri", S, "The full URI as received: scheme, host, path and query (no #fragment)"],
  ["http.request.uri", S, "The URI path and query string"],
  ["http.request.uri.path", S, "The URI path"],
  ["http.request.uri.path.extension", S, "The lowercased file extension of the URI path, without the dot"],
  ["http.request.uri.query", S, "The whole query string, without the ?"],
  ["http.request.uri.args", MAS, "The query string arguments by name (not decoded; repeated names keep every value)"],
  ["http.request.uri.args.names", AS, "The names of the query string arguments, in request order"],
  ["http.request.uri.args.values", AS, "The values of the query string arguments, in request order"],
  ["http.request.timestamp.sec", I, "When the edge received the request, in UNIX seconds"],
  ["http.request.timestamp.msec", I, "The milliseconds (0-999) of the time the edge received the request"],
  // Headers
  ["http.request.headers", MAS, "The request headers by lowercased name; repeated headers keep every value"],
  ["http.request.headers.names", AS, "The request header names, as sent"],
  ["http.request.headers.values", AS, "The request header values, in the order of the names"],
  ["http.request.headers.truncated", B, "Whether the request had too many headers to list them all"],
  ["http.request.accepted_languages", AS, "The Accept-Language tags, by descending weight", "W"],
  ["http.cookie", S, "The whole Cookie request header"],
  ["http.request.cookies", MAS, "The request cookies by URL-decoded name", "p"],
  ["http.user_agent", S, "The User-Agent request header"],
  ["http.referer", S, "The Referer request header"],
  ["http.x_forwarded_for", S, "The whole X-Forwarded-For request header"],
  // Body
  ["http.request.body.raw", S, "The request body, unaltered (may be truncated)", "e"],
  ["http.request.body.size", I, "The total size of the request body, in bytes", "e"],
  ["http.request.body.truncated", B, "Whether the body fields hold only part of the request body", "e"],
  ["http.request.body.mime", S, "The MIME type detected from the request body"],
  ["http.request.body.form", MAS, "The url-encoded form fields of the body, by name", "e"],
  ["http.request.body.form.names", AS, "The names of the form fields of the body", "e"],
  ["http.request.body.form.values", AS, "The values of the form fields of the body", "e"],
  ["http.request.body.multipart", MAS, "The parts of a multipart body, by part name", "e"],
  ["http.request.body.multipart.names", "Array<Array<String>>", "The names of every part of a multipart body", "e"],
  ["http.request.body.multipart.values", AS, "The values of every part of a multipart body", "e"],
  [
    "http.request.body.multipart.content_types",
    "Array<Array<String>>",
    "The Content-Type headers of every part of a multipart body",
    "e"
  ],
  [
    "http.request.body.multipart.content_dispositions",
    "Array<Array<String>>",
    "The Content-Disposition headers of every part of a multipart body",
    "e"
  ],
  [
    "http.request.body.multipart.content_transfer_encodings",
    "Array<Array<String>>",
    "The Content-Transfer-Encoding headers of every part of a multipart body",
    "e"
  ],
  [
    "http.request.body.multipart.filenames",
    "Array<Array<String>>",
    "The file names of every part of a multipart body",
    "e"
  ],
  ...jwt("aud", "aud (audience)"),
  ...jwt("iss", "iss (issuer)"),
  ...jwt("jti", "jti (JWT ID)"),
  ...jwt("sub", "sub (subject)"),
  ...jwt("iat.sec", "iat (issued at, seconds)", true),
  ...jwt("nbf.sec", "nbf (not before, seconds)", true),
  // Client IP and geolocation
  ["ip.src", IP, "The client IP address (possibly from X-Forwarded-For or X-Real-IP)"],
  ...geo("asnum", "The autonomous system (AS) number of the client IP"),
  ...geo("country", "The ISO 3166-1 alpha-2 country code of the client IP"),
  ...geo("continent", "The continent code of the client IP (AF AN AS EU NA OC SA, T1 for Tor)"),
  ...geo("city", "The city of the client IP"),
  ...geo("region", "The region name of the client IP"),
  ...geo("region_code", "The region code of the client IP"),
  ...geo("postal_code", "The postal code of the client IP"),
  ...geo("metro_code", "The metro (DMA) code of the client IP"),
  ...geo("lat", "The latitude of the client IP"),
  ...geo("lon", "The longitude of the client IP"),
  ...geo("subdivision_1_iso_code", "The ISO 3166-2 code of the first-level region of the client IP", "b"),
  ...geo("subdivision_2_iso_code", "The ISO 3166-2 code of the second-level region of the client IP", "b"),
  ...geo("is_in_european_union", "Whether the client IP is in a European Union country", "b"),
  ["ip.src.timezone.name", S, "The time zone name of the client IP", "W"],
  ["ip.geoip.asnum", I, "Deprecated alias of ip.src.asnum", "~ip.src.asnum"],
  ["ip.geoip.country", S, "Deprecated alias of ip.src.country", "~ip.src.country"],
  ["ip.geoip.continent", S, "Deprecated alias of ip.src.continent", "~ip.src.continent"],
  [
    "ip.geoip.subdivision_1_iso_code",
    S,
    "Deprecated alias of ip.src.subdivision_1_iso_code",
    "b ~ip.src.subdivision_1_iso_code"
  ],
  [
    "ip.geoip.subdivision_2_iso_code",
    S,
    "Deprecated alias of ip.src.subdivision_2_iso_code",
    "b ~ip.src.subdivision_2_iso_code"
  ],
  [
    "ip.geoip.is_in_european_union",
    B,
    "Deprecated alias of ip.src.is_in_european_union",
    "b ~ip.src.is_in_european_union"
  ],
  // Raw fields
  raw("http.request.full_uri", S, "The full URI"),
  raw("http.request.uri", S, "The URI path and query string"),
  raw("http.request.uri.path", S, "The URI path"),
  raw("http.request.uri.path.extension", S, "The file extension of the URI path"),
  raw("http.request.uri.query", S, "The query string"),
  raw("http.request.uri.args", MAS, "The query string arguments by name"),
  raw("http.request.uri.args.names", AS, "The query string argument names"),
  raw("http.request.uri.args.values", AS, "The query string argument values"),
  raw("http.response.headers", MAS, "The response headers by lowercased name", "R"),
  raw("http.response.headers.names", AS, "The response header names", "R"),
  raw("http.response.headers.values", AS, "The response header values", "R"),
  // Connection, TLS and edge
  ["ssl", B, "Whether the client connection is encrypted (HTTPS)"],
  ["cf.tls_version", S, 'The TLS version of the client connection, e.g. "TLSv1.3"'],
  ["cf.tls_cipher", S, "The TLS cipher of the client connection"],
  ["cf.tls_client_random", S, "The 32-byte client random of the TLS handshake, Base64"],
  ["cf.tls_client_hello_length", I, "The length of the TLS client hello, in bytes"],
  ["cf.tls_client_extensions_sha1", S, "The SHA-1 of the TLS client extensions, Base64 (big-endian)"],
  ["cf.tls_client_extensions_sha1_le", S, "The SHA-1 of the TLS client extensions, Base64 (little-endian)"],
  ["cf.tls_ciphers_sha1", S, "The SHA-1 of the client's TLS cipher list in received order, Base64"],
  ["cf.tls_client_auth.cert_presented", B, "Whether the mTLS client presented a certificate, valid or not"],
  [
    "cf.tls_client_auth.cert_verified",
    B,
    "Whether the mTLS client presented a valid certificate (revoked ones included)"
  ],
  ["cf.tls_client_auth.cert_revoked", B, "Whether the mTLS client certificate is valid but revoked"],
  mtls("cert_issuer_dn", "The issuer distinguished name"),
  mtls("cert_subject_dn", "The subject distinguished name"),
  mtls("cert_issuer_dn_rfc2253", "The issuer distinguished name (RFC 2253)"),
  mtls("cert_subject_dn_rfc2253", "The subject distinguished name (RFC 2253)"),
  mtls("cert_issuer_dn_legacy", "The issuer distinguished name (legacy format)"),
  mtls("cert_subject_dn_legacy", "The subject distinguished name (legacy format)"),
  mtls("cert_serial", "The serial number"),
  mtls("cert_issuer_serial", "The serial number of the issuer"),
  mtls("cert_fingerprint_sha256", "The SHA-256 fingerprint"),
  mtls("cert_fingerprint_sha1", "The SHA-1 fingerprint"),
  mtls("cert_not_before", "The start of validity"),
  mtls("cert_not_after", "The end of validity"),
  mtls("cert_ski", "The subject key identifier"),
  mtls("cert_issuer_ski", "The subject key identifier of the issuer"),
  mtls("cert_rfc9440", "The leaf certificate as an RFC 9440 byte sequence"),
  mtls("cert_chain_rfc9440", "The certificate chain (leaf excluded) as an RFC 9440 list"),
  ["cf.tls_client_auth.cert_rfc9440_too_large", B, "Whether the RFC 9440 leaf certificate exceeded 10 KiB"],
  ["cf.tls_client_auth.cert_chain_rfc9440_too_large", B, "Whether the RFC 9440 certificate chain exceeded 16 KiB"],
  ["cf.edge.server_ip", IP, "The edge IP address the request resolved to"],
  ["cf.edge.server_port", I, "The edge port that received the request (1-65535)"],
  ["cf.edge.client_tcp", B, "Whether the request came over TCP"],
  ["cf.edge.l4.delivery_rate", I, "The latest delivery rate estimate of the client connection, in bytes per second"],
  ["cf.timings.client_tcp_rtt_msec", I, "The smoothed TCP round-trip time to the client, in ms (0 over QUIC)"],
  ["cf.timings.client_quic_rtt_msec", I, "The smoothed QUIC round-trip time to the client, in ms (0 over TCP)"],
  ["cf.timings.edge_msec", I, "The time the edge spent processing the request, in ms"],
  ["cf.timings.origin_ttfb_msec", I, "The time to first byte from the origin, in ms (0 when served from cache)"],
  ["cf.timings.worker_msec", I, "The time a Worker spent on the request, in ms (0 without a Worker)"],
  ["cf.ray_id", S, "The Ray ID of the request"],
  ["cf.random_seed", "Bytes", "Random bytes, fresh for each request (for uuidv4())"],
  ["cf.hostname.metadata", S, "The custom metadata JSON of the SSL for SaaS hostname, as a string"],
  ["cf.worker.upstream_zone", S, "The zone of the Worker that sent the request (empty otherwise)"],
  ["cf.zone.plan", S, 'The plan of the zone, e.g. "ENT" (account-level rulesets)'],
  // Bots and threats
  ["cf.client.bot", B, "Whether the request comes from a known good bot or crawler"],
  ["cf.verified_bot_category", S, "The category of the verified bot that sent the request"],
  ["cf.threat_score", I, "The legacy threat score; always 0 now"],
  ["cf.bot_management.score", I, "The likelihood that a human sent the request, 1 (bot) to 99 (human)", "e+"],
  [
    "cf.bot_management.verified_bot",
    B,
    "Whether the request comes from a known good bot (same as cf.client.bot)",
    "e+"
  ],
  ["cf.bot_management.static_resource", B, "Whether the request is for a static resource", "e+"],
  [
    "cf.bot_management.corporate_proxy",
    B,
    "Whether the request comes from a known corporate proxy or secure web gateway",
    "e+"
  ],
  ["cf.bot_management.signed_agent", B, "Whether the request comes from a known agent using Web Bot Auth", "e+"],
  ["cf.bot_management.js_detection.passed", B, "Whether the visitor passed a JavaScript detection before", "e+"],
  ["cf.bot_management.ja3_hash", S, "The JA3 TLS fingerprint of the client", "e+"],
  ["cf.bot_management.ja4", S, "The JA4 TLS fingerprint of the client", "e+"],
  ["cf.bot_management.detection_ids", "Array<Integer>", "The ids of the bot heuristics that matched the request", "e+"],
  // WAF detections
  ["cf.waf.score", I, "The WAF attack score, 1 (attack) to 99 (clean); 100 when not scored", "e"],
  ["cf.waf.score.sqli", I, "The WAF attack score for SQL injection", "e"],
  ["cf.waf.score.xss", I, "The WAF attack score for cross-site scripting", "e"],
  ["cf.waf.score.rce", I, "The WAF attack score for command injection / remote code execution", "e"],
  ["cf.waf.score.class", S, "The WAF attack score class: attack, likely_attack, likely_clean or clean", "b"],
  ["cf.waf.auth_detected", B, "Whether the WAF found authentication credentials in the request", "e"],
  ["cf.waf.credential_check.password_leaked", B, "Whether the password in the request was previously leaked"],
  ["cf.waf.credential_check.username_leaked", B, "Whether the username in the request was previously leaked", "e"],
  [
    "cf.waf.credential_check.username_and_password_leaked",
    B,
    "Whether the username and password pair was previously leaked",
    "p"
  ],
  [
    "cf.waf.credential_check.username_password_similar",
    B,
    "Whether a similar username and password pair was previously leaked",
    "e"
  ],
  ["cf.waf.content_scan.has_obj", B, "Whether the request contains at least one content object", "e+"],
  [
    "cf.waf.content_scan.has_malicious_obj",
    B,
    "Whether the request contains at least one malicious content object",
    "e+"
  ],
  ["cf.waf.content_scan.has_failed", B, "Whether the scanner failed to scan some content object", "e+"],
  ["cf.waf.content_scan.num_obj", I, "The number of content objects in the request", "e+"],
  ["cf.waf.content_scan.num_malicious_obj", I, "The number of malicious content objects in the request", "e+"],
  ["cf.waf.content_scan.obj_sizes", "Array<Integer>", "The sizes of the content objects, in bytes", "e+"],
  ["cf.waf.content_scan.obj_types", AS, "The file types of the content objects", "e+"],
  [
    "cf.waf.content_scan.obj_results",
    AS,
    "The scan results of the content objects (clean, suspicious, infected, not scanned)",
    "e+"
  ],
  ["cf.llm.prompt.detected", B, "Whether the request contains an LLM prompt", "e"],
  ["cf.llm.prompt.pii_detected", B, "Whether the LLM prompt contains personally identifiable information", "e"],
  ["cf.llm.prompt.pii_categories", AS, "The PII categories found in the LLM prompt", "e"],
  ["cf.llm.prompt.unsafe_topic_detected", B, "Whether the LLM prompt touches an unsafe topic", "e"],
  ["cf.llm.prompt.unsafe_topic_categories", AS, "The unsafe topic categories of the LLM prompt (S1-S14)", "e"],
  [
    "cf.llm.prompt.injection_score",
    I,
    "The likelihood of a prompt injection, 1 (likely) to 99; 100 when not scored",
    "e"
  ],
  ["cf.llm.prompt.token_count", I, "The estimated token count of the LLM prompt", "e"],
  [
    "cf.llm.prompt.custom_topic_categories",
    "Map<Integer>",
    "The relevance (1-99, lower is closer) of the prompt to each custom topic",
    "e"
  ],
  ["cf.api_gateway.auth_id_present", B, "Whether the request carried an API Shield session identifier", "e+"],
  [
    "cf.api_gateway.request_violates_schema",
    B,
    "Whether the request violated the schema of its API Shield endpoint",
    "e+"
  ],
  ["cf.api_gateway.fallthrough_detected", B, "Whether the request matched no saved API Shield endpoint", "e+"],
  ["cf.schema_validation.learned.violated", B, "Whether the request violates the learned API profile", "e+"],
  ["cf.schema_validation.uploaded.violated", B, "Whether the request violates the uploaded API schema", "e+"],
  // Response phases
  ["http.response.code", I, "The HTTP status code returned to the client", "R"],
  ["http.response.headers", MAS, "The response headers by lowercased name", "R"],
  ["http.response.headers.names", AS, "The response header names", "R"],
  ["http.response.headers.values", AS, "The response header values", "R"],
  [
    "http.response.content_type.media_type",
    S,
    "The lowercased media type of the response Content-Type, without parameters",
    "R"
  ],
  ["cf.response.1xxx_code", I, "The code of a 1XXX edge error (0 otherwise)", "R"],
  ["cf.response.error_type", S, 'The type of error being returned (waf, ratelimit, 1xxx, ...; "" otherwise)', "R"]
]

/** The HTTP scheme's fields (custom rules, firewall rules, WAF, transform rules). */
export const HTTP_FIELDS: ReadonlyArray<FieldInfo> = HTTP_ROWS.map(parseRow)
