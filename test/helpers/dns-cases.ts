/** Structured DNS records shared by the DNS tests and the contract test (names are under initech.net). */

/** One record per structured type: what is sent as data, the content the platform writes for it. */
export const StructuredCases: ReadonlyArray<{
  type: string
  data: Record<string, string | number>
  content: string
  priority?: number
}> = [
  {
    type: "SRV",
    data: { priority: 10, weight: 5, port: 5060, target: "sip.initech.net" },
    content: "5 5060 sip.initech.net",
    priority: 10
  },
  { type: "CAA", data: { flags: 0, tag: "issue", value: "letsencrypt.org" }, content: '0 issue "letsencrypt.org"' },
  {
    type: "LOC",
    data: {
      lat_degrees: 51,
      lat_minutes: 30,
      lat_seconds: 12.748,
      lat_direction: "N",
      long_degrees: 0,
      long_minutes: 7,
      long_seconds: 39.611,
      long_direction: "W",
      altitude: 0,
      size: 1,
      precision_horz: 10000,
      precision_vert: 10
    },
    content: "51 30 12.748 N 0 7 39.611 W 0.00m 1.00m 10000.00m 10.00m"
  },
  {
    type: "CERT",
    data: { type: 1, key_tag: 12345, algorithm: 8, certificate: "MIIBIjANBgkqhkiG9w0BAQEFAAOC" },
    content: "1 12345 8 MIIBIjANBgkqhkiG9w0BAQEFAAOC"
  },
  {
    type: "DNSKEY",
    data: { flags: 257, protocol: 3, algorithm: 13, public_key: "mdsswUyr3DPW132mOi8V9xESWE8jTo0d" },
    content: "257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0d"
  },
  {
    type: "DS",
    data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: "1F987CC6583E92DF0890718C42" },
    content: "2371 13 2 1F987CC6583E92DF0890718C42"
  },
  {
    type: "NAPTR",
    data: {
      order: 100,
      preference: 10,
      flags: "S",
      service: "SIP+D2U",
      regex: "",
      replacement: "_sip._udp.initech.net"
    },
    content: '100 10 "S" "SIP+D2U" "" _sip._udp.initech.net'
  },
  {
    type: "SMIMEA",
    data: { usage: 3, selector: 1, matching_type: 1, certificate: "d2abde240d7cd3ee6b4b28c54df034b9" },
    content: "3 1 1 d2abde240d7cd3ee6b4b28c54df034b9"
  },
  {
    type: "SSHFP",
    data: { algorithm: 4, type: 2, fingerprint: "123456789abcdef67890123456789abcdef67890123456789abcdef123456789" },
    content: "4 2 123456789abcdef67890123456789abcdef67890123456789abcdef123456789"
  },
  { type: "SVCB", data: { priority: 1, target: ".", value: 'alpn="h3,h2"' }, content: '1 . alpn="h3,h2"' },
  {
    type: "HTTPS",
    data: { priority: 1, target: ".", value: 'alpn="h2" ipv4hint="192.0.2.1"' },
    content: '1 . alpn="h2" ipv4hint="192.0.2.1"'
  },
  {
    type: "TLSA",
    data: { usage: 3, selector: 1, matching_type: 1, certificate: "0c72ac70b745ac19998811b131d662c9" },
    content: "3 1 1 0c72ac70b745ac19998811b131d662c9"
  },
  {
    type: "URI",
    data: { weight: 1, target: "https://initech.net/tps" },
    content: '1 "https://initech.net/tps"',
    priority: 10
  }
]
