/** The work of every `edgectl firewall` command, in one module loaded when a firewall command runs. */
export { filtersCreate, filtersDelete, filtersGet, filtersList, filtersUpdate } from "./filters-run.js"
export { migrate } from "./migrate-run.js"
export { test, validate } from "./request-run.js"
export { rulesCreate, rulesDelete, rulesGet, rulesList, rulesUpdate } from "./rules-run.js"
