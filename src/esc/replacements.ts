/**
 * What replaces each ESC use case before the removal: the product, the ruleset phase it runs in,
 * the rule action and one example (a rule for the rulesets API, or a Worker where no rule phase
 * fits). Source: the platform's ESC deprecation page and its phases list (see docs/esc.md).
 */

export type Example =
  | { readonly kind: "rule"; readonly rule: Readonly<Record<string, unknown>> }
  | { readonly kind: "worker"; readonly code: string }

export interface Replacement {
  readonly useCase: string
  readonly product: string
  /** The ruleset phase, or null when the replacement is not a rule (Workers). */
  readonly phase: string | null
  readonly action: string | null
  readonly example: Example | null
  /** What the example does not settle (shapes the sources do not confirm). */
  readonly note?: string
}

const rule = (r: Record<string, unknown>): Example => ({ kind: "rule", rule: r })

export const Replacements: ReadonlyArray<Replacement> = [
  {
    useCase: "Redirect to a URL (no origin fetch)",
    product: "Single Redirects",
    phase: "http_request_dynamic_redirect",
    action: "redirect",
    example: rule({
      expression: 'http.host eq "old.example.com"',
      action: "redirect",
      action_parameters: {
        from_value: {
          status_code: 301,
          target_url: { expression: 'concat("https://new.example.com", http.request.uri.path)' },
          preserve_query_string: true
        }
      }
    })
  },
  {
    useCase: "Redirect to a URL (large static lists)",
    product: "Bulk Redirects (account level, with a redirect list)",
    phase: "http_request_redirect",
    action: "redirect",
    example: rule({
      expression: "http.request.full_uri in $redirect_list",
      action: "redirect",
      action_parameters: { from_list: { name: "redirect_list", key: "http.request.full_uri" } }
    }),
    note: "the shape of from_list is not confirmed by the sources"
  },
  {
    useCase: "Rewrite SNI",
    product: "Origin Rules",
    phase: "http_request_origin",
    action: "route",
    example: rule({
      expression: 'http.host eq "app.example.com"',
      action: "route",
      action_parameters: { sni: { value: "origin.example.net" } }
    })
  },
  {
    useCase: "Resolve override / destination port",
    product: "Origin Rules",
    phase: "http_request_origin",
    action: "route",
    example: rule({
      expression: 'starts_with(http.request.uri.path, "/api/")',
      action: "route",
      action_parameters: { origin: { host: "api-origin.example.com", port: 8443 } }
    })
  },
  {
    useCase: "Host header switching",
    product: "Origin Rules",
    phase: "http_request_origin",
    action: "route",
    example: rule({
      expression: 'http.host eq "www.example.com"',
      action: "route",
      action_parameters: { host_header: "bucket.example-storage.com" }
    })
  },
  {
    useCase: "Rewrite the URI (origin sees another URL)",
    product: "Transform Rules: URL rewrite",
    phase: "http_request_transform",
    action: "rewrite",
    example: rule({
      expression: 'http.request.uri.path eq "/old"',
      action: "rewrite",
      action_parameters: { uri: { path: { value: "/new" } } }
    })
  },
  {
    useCase: "Set or clear request headers to the origin",
    product: "Transform Rules: request header modification",
    phase: "http_request_late_transform",
    action: "rewrite",
    example: rule({
      expression: "true",
      action: "rewrite",
      action_parameters: {
        headers: {
          "X-Client-Country": { operation: "set", expression: "ip.src.country" },
          "X-Debug": { operation: "remove" }
        }
      }
    })
  },
  {
    useCase: "Feature exceptions (skip security features)",
    product: "Configuration Rules (WAF skip rules for WAF and rate limiting)",
    phase: "http_config_settings",
    action: "set_config",
    example: rule({
      expression: 'http.request.uri.path eq "/health"',
      action: "set_config",
      action_parameters: { bic: false, security_level: "essentially_off" }
    }),
    note: "the value essentially_off is not confirmed by the sources (under_attack is documented)"
  },
  {
    useCase: "Send a custom error response",
    product: "Custom Error Rules",
    phase: "http_custom_errors",
    action: "serve_error",
    example: rule({
      expression: "http.response.code ge 500 and http.response.code lt 600",
      action: "serve_error",
      action_parameters: {
        content: '{"message":"A server error occurred."}',
        content_type: "application/json",
        status_code: 530
      }
    })
  },
  {
    useCase: "Set, add or remove response headers",
    product: "Transform Rules: response header modification",
    phase: "http_response_headers_transform",
    action: "rewrite",
    example: rule({
      expression: "true",
      action: "rewrite",
      action_parameters: {
        headers: { "X-Frame-Options": { operation: "set", value: "DENY" }, Server: { operation: "remove" } }
      }
    })
  },
  {
    useCase: "Add cookies to the response",
    product: "Transform Rules: response header modification (Set-Cookie)",
    phase: "http_response_headers_transform",
    action: "rewrite",
    example: rule({
      expression: 'http.host eq "shop.example.com"',
      action: "rewrite",
      action_parameters: { headers: { "Set-Cookie": { operation: "add", value: "region=eu; Path=/; Secure" } } }
    })
  },
  {
    useCase: "Redirect on the origin's status code",
    product: "Workers (no rule phase does this)",
    phase: null,
    action: null,
    example: {
      kind: "worker",
      code: 'export default { async fetch(request) { const response = await fetch(request); return response.status === 404 ? Response.redirect("https://example.com/not-found", 302) : response } }'
    }
  },
  {
    useCase: "Anything more complex",
    product: "Workers (or Snippets, phase http_request_snippets)",
    phase: null,
    action: null,
    example: null
  }
]

/** The example as one line: the rule's JSON, or the Worker's code. */
export const exampleText = (e: Example | null): string =>
  e === null ? "" : e.kind === "rule" ? JSON.stringify(e.rule) : e.code

/** Request phases in the order they run (ESC ran before all of them). */
export const RequestPhases = [
  "http_request_sanitize",
  "http_request_dynamic_redirect",
  "http_request_transform",
  "http_config_settings",
  "http_request_origin",
  "ddos_l7",
  "http_request_firewall_custom",
  "http_ratelimit",
  "http_request_firewall_managed",
  "http_request_sbfm",
  "http_request_redirect",
  "http_request_late_transform",
  "http_request_cache_settings",
  "http_request_snippets",
  "http_request_cloud_connector"
] as const

/** Response phases in the order they run. */
export const ResponsePhases = [
  "http_custom_errors",
  "http_response_headers_transform",
  "http_ratelimit",
  "http_response_compression",
  "http_response_firewall_managed",
  "http_log_custom_fields"
] as const
