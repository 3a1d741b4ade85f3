/** The network (Magic Firewall) scheme: the packet's IP, ICMP, TCP and UDP fields. */
import { B, I, IP, S, parseRow, type FieldInfo, type Row } from "./fields.js"

const NETWORK_ROWS: ReadonlyArray<Row> = [
  ["ip", S, "The raw IP packet bytes (for bit_slice())"],
  ["ip.src", IP, "The source address of the IP packet"],
  ["ip.dst", IP, "The destination address of the IP packet"],
  ["ip.src.country", S, "The ISO 3166-1 alpha-2 country code of the source address"],
  ["ip.dst.country", S, "The ISO 3166-1 alpha-2 country code of the destination address"],
  ["ip.geoip.country", S, "Deprecated: the country of the source or the destination address", "~ip.src.country"],
  ["ip.hdr_len", I, "The length of the IPv4 header"],
  ["ip.len", I, "The length of the packet, header included"],
  ["ip.opt.type", I, "The first byte of the IP options field, when set"],
  ["ip.proto", S, "The transport protocol of the packet, e.g. tcp or icmp"],
  ["ip.ttl", I, "The time-to-live of the IP packet"],
  ["icmp", S, "The raw ICMP packet bytes (for bit_slice())"],
  ["icmp.type", I, "The ICMP type"],
  ["icmp.code", I, "The ICMP code"],
  ["tcp", S, "The raw TCP packet bytes (for bit_slice())"],
  ["tcp.srcport", I, "The TCP source port"],
  ["tcp.dstport", I, "The TCP destination port"],
  ["tcp.flags", I, "The TCP flags byte"],
  ["tcp.flags.ack", B, "The TCP acknowledgment flag"],
  ["tcp.flags.cwr", B, "The TCP congestion window reduced flag"],
  ["tcp.flags.ecn", B, "The TCP ECN-Echo flag"],
  ["tcp.flags.fin", B, "The TCP finish flag"],
  ["tcp.flags.push", B, "The TCP push flag"],
  ["tcp.flags.reset", B, "The TCP reset flag"],
  ["tcp.flags.syn", B, "The TCP synchronize flag"],
  ["tcp.flags.urg", B, "The TCP urgent flag"],
  ["udp", S, "The raw UDP packet bytes (for bit_slice())"],
  ["udp.srcport", I, "The UDP source port"],
  ["udp.dstport", I, "The UDP destination port"],
  ["sip", B, "Whether the UDP packet is valid SIP"],
  ["cf.colo.name", S, "The data center handling the traffic"],
  ["cf.colo.region", S, "The region of the data center handling the traffic"]
]

/** The network (Magic Firewall) scheme's fields. */
export const NETWORK_FIELDS: ReadonlyArray<FieldInfo> = NETWORK_ROWS.map(parseRow)
