/**
 * What each grammar's declarations are, as tree-sitter queries: a pattern per kind of declaration,
 * capturing the declaration as `@def.<Kind>` (VS Code's SymbolKind name), its name as `@name`, and
 * for functions the body a signatures view drops as `@body`. Where one node matches two patterns,
 * the earlier pattern wins (a `const` holding an arrow function is a function, not a constant).
 * Nesting comes from where declarations lie, not from the patterns. An anonymous default export
 * (`export default class { ... }`) is named `default`, as the TypeScript service names it: without
 * a declaration of its own its members would stand at the top of the outline, and a signatures
 * view would keep them without the class around them.
 */

const JAVASCRIPT_COMMON = `
(function_declaration name: (identifier) @name body: (_) @body) @def.Function
(generator_function_declaration name: (identifier) @name body: (_) @body) @def.Function
(class_declaration name: (_) @name) @def.Class
(method_definition name: (_) @name body: (_) @body) @def.Method
(variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Function
(variable_declarator name: (identifier) @name value: (class)) @def.Class
(export_statement "default" @name value: (class)) @def.Class
(export_statement "default" @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Function
(program (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @def.Constant))
(program (export_statement (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @def.Constant)))
(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.Variable))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name) @def.Variable)))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.Variable))
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name) @def.Variable)))
`;

const TYPESCRIPT = `${JAVASCRIPT_COMMON}
(abstract_class_declaration name: (_) @name) @def.Class
(interface_declaration name: (_) @name) @def.Interface
(type_alias_declaration name: (_) @name) @def.TypeParameter
(enum_declaration name: (_) @name) @def.Enum
(interface_body (method_signature name: (_) @name) @def.Method)
(interface_body (property_signature name: (_) @name) @def.Property)
(abstract_method_signature name: (_) @name) @def.Method
(public_field_definition name: (_) @name) @def.Property
(function_signature name: (_) @name) @def.Function
(internal_module name: (_) @name) @def.Namespace
(module name: (_) @name) @def.Module
`;

const JAVASCRIPT = `${JAVASCRIPT_COMMON}
(field_definition property: (_) @name) @def.Property
`;

const PYTHON = `
(class_definition name: (identifier) @name) @def.Class
(function_definition name: (identifier) @name body: (block) @body) @def.Function
(module (expression_statement (assignment left: (identifier) @name) @def.Variable))
`;

const GO = `
(function_declaration name: (identifier) @name body: (block) @body) @def.Function
(method_declaration name: (field_identifier) @name body: (block) @body) @def.Method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.Struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.Interface
(type_spec name: (type_identifier) @name) @def.Class
(type_alias name: (type_identifier) @name) @def.Class
(method_elem name: (field_identifier) @name) @def.Method
(field_declaration name: (field_identifier) @name) @def.Field
(source_file (const_declaration (const_spec name: (identifier) @name) @def.Constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.Variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.Variable)))
`;

const RUST = `
(function_item name: (identifier) @name body: (block) @body) @def.Function
(function_signature_item name: (identifier) @name) @def.Function
(struct_item name: (type_identifier) @name) @def.Struct
(union_item name: (type_identifier) @name) @def.Struct
(enum_item name: (type_identifier) @name) @def.Enum
(trait_item name: (type_identifier) @name) @def.Interface
(impl_item type: (_) @name) @def.Object
(mod_item name: (identifier) @name) @def.Module
(const_item name: (identifier) @name) @def.Constant
(static_item name: (identifier) @name) @def.Variable
(type_item name: (type_identifier) @name) @def.TypeParameter
(macro_definition name: (identifier) @name) @def.Function
(field_declaration name: (field_identifier) @name) @def.Field
(enum_variant name: (identifier) @name) @def.EnumMember
`;

const JAVA = `
(class_declaration name: (identifier) @name) @def.Class
(interface_declaration name: (identifier) @name) @def.Interface
(enum_declaration name: (identifier) @name) @def.Enum
(record_declaration name: (identifier) @name) @def.Struct
(annotation_type_declaration name: (identifier) @name) @def.Interface
(method_declaration name: (identifier) @name body: (block) @body) @def.Method
(method_declaration name: (identifier) @name) @def.Method
(constructor_declaration name: (identifier) @name body: (constructor_body) @body) @def.Constructor
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.Field
(enum_constant name: (identifier) @name) @def.EnumMember
`;

const C_COMMON = `
(function_definition declarator: (function_declarator declarator: (identifier) @name) body: (_) @body) @def.Function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) body: (_) @body) @def.Function
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name)) @def.Function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @def.Function)
(struct_specifier name: (type_identifier) @name body: (_)) @def.Struct
(union_specifier name: (type_identifier) @name body: (_)) @def.Struct
(enum_specifier name: (type_identifier) @name body: (_)) @def.Enum
(type_definition declarator: (type_identifier) @name) @def.TypeParameter
(preproc_def name: (identifier) @name) @def.Constant
(preproc_function_def name: (identifier) @name) @def.Function
(field_declaration declarator: (field_identifier) @name) @def.Field
(field_declaration declarator: [(pointer_declarator declarator: (field_identifier) @name) (array_declarator declarator: (field_identifier) @name)]) @def.Field
(enumerator name: (identifier) @name) @def.EnumMember
`;

const C = C_COMMON;

const CPP = `${C_COMMON}
(function_definition declarator: (function_declarator declarator: [(field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name) body: (_) @body) @def.Function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name)) body: (_) @body) @def.Function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (qualified_identifier)] @name)) body: (_) @body) @def.Function
(field_declaration declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @def.Method
(declaration declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name)) @def.Method
(class_specifier name: (type_identifier) @name body: (_)) @def.Class
(namespace_definition name: (namespace_identifier) @name) @def.Namespace
(alias_declaration name: (type_identifier) @name) @def.TypeParameter
`;

const CSHARP = `
(namespace_declaration name: (_) @name) @def.Namespace
(file_scoped_namespace_declaration name: (_) @name) @def.Namespace
(class_declaration name: (identifier) @name) @def.Class
(interface_declaration name: (identifier) @name) @def.Interface
(struct_declaration name: (identifier) @name) @def.Struct
(record_declaration name: (identifier) @name) @def.Struct
(enum_declaration name: (identifier) @name) @def.Enum
(method_declaration name: (identifier) @name body: (_) @body) @def.Method
(method_declaration name: (identifier) @name) @def.Method
(constructor_declaration name: (identifier) @name body: (_) @body) @def.Constructor
(property_declaration name: (identifier) @name) @def.Property
(field_declaration (variable_declaration (variable_declarator (identifier) @name))) @def.Field
(enum_member_declaration name: (identifier) @name) @def.EnumMember
(delegate_declaration name: (identifier) @name) @def.Function
`;

const RUBY = `
(module name: (_) @name) @def.Module
(class name: (_) @name) @def.Class
(method name: (_) @name body: (_) @body) @def.Method
(method name: (_) @name) @def.Method
(singleton_method name: (_) @name body: (_) @body) @def.Method
(singleton_method name: (_) @name) @def.Method
(assignment left: (constant) @name) @def.Constant
`;

const PHP = `
(namespace_definition name: (_) @name body: (_)) @def.Namespace
(class_declaration name: (name) @name) @def.Class
(interface_declaration name: (name) @name) @def.Interface
(trait_declaration name: (name) @name) @def.Class
(enum_declaration name: (name) @name) @def.Enum
(function_definition name: (name) @name body: (_) @body) @def.Function
(method_declaration name: (name) @name body: (_) @body) @def.Method
(method_declaration name: (name) @name) @def.Method
(property_declaration (property_element name: (variable_name) @name)) @def.Property
(const_declaration (const_element (name) @name)) @def.Constant
`;

/** The queries by language id (see grammarCatalog.ts). */
export const DECLARATION_QUERIES: Readonly<Record<string, string>> = {
	typescript: TYPESCRIPT,
	tsx: TYPESCRIPT,
	javascript: JAVASCRIPT,
	python: PYTHON,
	go: GO,
	rust: RUST,
	java: JAVA,
	c: C,
	cpp: CPP,
	csharp: CSHARP,
	ruby: RUBY,
	php: PHP,
};
