package jsmod

import "github.com/code2skill/code2skill/internal/diag"

var (
	// RuleSyntax flags a file that is not a valid ECMAScript module: node
	// would refuse to load it.
	RuleSyntax = diag.Register("JS_SYNTAX", diag.Error,
		"every .mjs/.js file must parse as an ECMAScript module")

	// RuleNestingLimit flags a module nested deeper than the analyser
	// follows (see maxNesting). Node may accept it; code2skill cannot read
	// its facts, so it cannot vouch for it.
	RuleNestingLimit = diag.Register("JS_NESTING_LIMIT", diag.Error,
		"a module must not nest expressions or statements deeper than the analyser follows (1000 levels)")

	// RuleEnvURLFallback flags an environment read that falls back to a
	// literal http(s) URL. core-export-v1 forbids default environments: a
	// missing base URL must stop the request before it is sent, not
	// silently send it to an address found in the source.
	RuleEnvURLFallback = diag.Register("JS_ENV_URL_FALLBACK", diag.Error,
		"an environment variable read must not fall back to a literal http(s) URL (no default environments)")

	// RuleBaseURLLiteral flags a service address written into the code: a
	// request that goes to the address the source happened to hold, whatever
	// the host configures (spec 003: Function 不默认指向源码中的测试、预发或
	// 生产环境).
	RuleBaseURLLiteral = diag.Register("JS_BASE_URL_LITERAL", diag.Error,
		"no service address is written into package code: no literal http(s) base URL, fetch URL or URL base outside .invalid")

	// RuleCredentialLiteral flags a credential written into a package: a
	// token, key or password travels with every copy of the package and
	// outlives the host's configuration (spec 003: token, Cookie, 密钥 are
	// runtime credentials the host injects).
	RuleCredentialLiteral = diag.Register("JS_CREDENTIAL_LITERAL", diag.Error,
		"no credential is written into package code: no JWT or provider key, no literal assigned to a token, secret or password")
)
