package skillmd

import "github.com/code2skill/code2skill/internal/diag"

// The rules of the Agent Skills format (agentskills.io/specification) and
// of skills that must work once installed alone.
var (
	RuleFrontmatterMissing = diag.Register("SKILL_FRONTMATTER_MISSING", diag.Error,
		"SKILL.md must start with a YAML frontmatter block: a first line that is exactly ---")
	RuleFrontmatterUnterminated = diag.Register("SKILL_FRONTMATTER_UNTERMINATED", diag.Error,
		"the frontmatter of SKILL.md must be closed by a line that is exactly ---")
	RuleFrontmatterYAML = diag.Register("SKILL_FRONTMATTER_YAML", diag.Error,
		"the frontmatter of SKILL.md must be valid YAML without duplicate keys")
	RuleFrontmatterNotMapping = diag.Register("SKILL_FRONTMATTER_NOT_MAPPING", diag.Error,
		"the frontmatter of SKILL.md must be a YAML mapping of field names to values")

	RuleNameMissing = diag.Register("SKILL_NAME_MISSING", diag.Error,
		"the frontmatter must have a name")
	RuleNameInvalid = diag.Register("SKILL_NAME_INVALID", diag.Error,
		"name must be a string of 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen")
	RuleDescriptionMissing = diag.Register("SKILL_DESCRIPTION_MISSING", diag.Error,
		"the frontmatter must have a description")
	RuleDescriptionInvalid = diag.Register("SKILL_DESCRIPTION_INVALID", diag.Error,
		"description must be a non-empty string of at most 1024 characters")
	RuleFieldUnknown = diag.Register("SKILL_FIELD_UNKNOWN", diag.Error,
		"the frontmatter may only hold name, description, license, allowed-tools, metadata and compatibility")
	RuleFieldInvalid = diag.Register("SKILL_FIELD_INVALID", diag.Error,
		"license, compatibility, metadata and allowed-tools must have the types and sizes Agent Skills defines")

	RuleNameFolderMismatch = diag.Register("SKILL_NAME_FOLDER_MISMATCH", diag.Error,
		"a skill under skills/<folder>/ is named <folder>: skills-ref validate rejects a mismatch, and installers use the name")
	RuleNamePackageFolder = diag.Register("SKILL_NAME_PACKAGE_FOLDER", diag.Warning,
		"a SKILL.md at a package's root is named like the package's directory: skills-ref validate rejects a mismatch, but the directory's name is the deployer's choice")
	RuleBodyTooLong = diag.Register("SKILL_BODY_TOO_LONG", diag.Warning,
		"the body of SKILL.md should stay within 500 lines; detail belongs in references/")
	RuleNameDuplicate = diag.Register("SKILL_NAME_DUPLICATE", diag.Error,
		"skills of one package must have distinct names: they install into the same directory")
	RuleReferenceOutside = diag.Register("SKILL_REFERENCE_OUTSIDE", diag.Error,
		"a skill must not refer to files outside its own folder: an installed skill is copied alone")
)
