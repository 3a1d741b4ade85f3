// WAF documents register their checks here (issue 6's mapping).
export {}
