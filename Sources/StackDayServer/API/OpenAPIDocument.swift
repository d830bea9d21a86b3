import StackDay
import StackDayApplication

/// `GET /openapi.json`: the OpenAPI 3.1 document of the API, made from the route table
/// (`HabitRoutes.routes`, each route with its `EndpointDoc`) and the views' schemas
/// (`ViewSchema`), so neither can be left out of it.
enum OpenAPIDocument {
    static let errorStatuses: [(Int, String)] = [
        (400, "A field or value refused (bad_request, invalid_input, invalid_parameter, read_out_of_bounds)"),
        (401, "No token, one no user or device has, or a pairing code unknown, used or expired"), (404, "No such habit, revision, policy, device or endpoint"), (405, "A method the path does not take"),
        (409, "A name already taken"), (413, "A body over the server's limit"), (422, "A policy failed or ran out of its budget"),
        (429, "Too many failed sign-ins from this address, or too many requests for this token (Retry-After)"),
        (500, "The store failed"), (503, "The server is busy or stopping (Retry-After)"),
    ]

    /// The document for a server whose policies are `policies` (its catalog: the built-ins and its
    /// folder's): each policy's parameters are a schema of their own (`Params.NAME`, the JSON Schema
    /// the policy declares), which a body's parameters field names per policy.
    static func document(policies: [PolicyListing]) -> JSONValue {
        guard case .object(var root) = document, case .object(var components)? = root["components"],
              case .object(var schemas)? = components["schemas"] else { return document }
        for listing in policies { schemas["Params.\(listing.name)"] = listing.schema.jsonSchema }
        // Where a body names a policy, its parameters field says which schema each policy's take
        // (`x-policy-params`: policy name → `Params.NAME`); the field itself stays an object, so
        // generated clients and fuzzers need no cross-field rule.
        func mapping(_ role: PolicyRole?) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: policies.filter { role == nil || $0.roles.contains(role!) }.map {
                ($0.name, JSONValue.object(["$ref": .string("#/components/schemas/Params.\($0.name)")]))
            }))
        }
        for body in ["CreateHabit", "EditHabit", "Simulate"] {
            guard case .object(var schema)? = schemas[body], case .object(var properties)? = schema["properties"] else { continue }
            let fields: [(String, PolicyRole?)] = body == "Simulate" ? [("params", nil)] : PolicyRole.habitRoles.map { ("\($0.rawValue)Params", $0) }
            for (field, role) in fields {
                properties[field] = .object([
                    "type": .string("object"), "x-policy-params": mapping(role),
                    "description": .string("The parameters of the policy named beside it: the schema x-policy-params gives for that policy"),
                ])
            }
            schema["properties"] = .object(properties)
            schemas[body] = .object(schema)
        }
        components["schemas"] = .object(schemas)
        root["components"] = .object(components)
        return .object(root)
    }

    static let document: JSONValue = {
        var paths: [String: [String: JSONValue]] = [:]
        for (method, pattern, endpoint) in HabitRoutes.routes {
            let doc = endpoint.doc
            let path = "/v1/" + pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            var parameters: [JSONValue] = pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { name in
                .object(["name": .string(String(name.dropFirst())), "in": .string("path"), "required": .bool(true),
                         "example": .string(pattern.hasPrefix("policies") ? "lenient" : "water"),
                         "schema": .object(["type": .string("string"), "minLength": .number(1)])])
            }
            for field in doc.query?.httpFields ?? [] {
                parameters.append(.object(["name": .string(field.key), "in": .string("query"), "required": .bool(field.isRequired),
                                           "description": .string(field.help), "schema": field.schema]))
            }
            if Idempotency.writeMethods.contains(method.uppercased()) {
                parameters.append(.object([
                    "name": .string("Idempotency-Key"), "in": .string("header"), "required": .bool(false),
                    "description": .string("1 to 255 visible ASCII characters, a new one per write: a retry with the same key and the same request gets the first answer again (with Idempotent-Replayed: true) and writes nothing; kept per user for 24 hours. The same key with another request is 422 idempotency_key_reused; while the first is being answered, 409 idempotency_key_in_use."),
                    "schema": .object(["type": .string("string"), "minLength": .number(1), "maxLength": .number(255), "pattern": .string("^[!-~]+$")]),
                ]))
            }
            var responses: [String: JSONValue] = [:]
            let error: JSONValue = .object(["application/json": .object(["schema": .object(["$ref": .string("#/components/schemas/Error")])])])
            for (status, description) in errorStatuses {
                responses[String(status)] = .object(["description": .string(description), "content": error])
            }
            if let answer = doc.answer {
                var content: [String: JSONValue] = ["application/json": .object(["schema": .object(["$ref": .string("#/components/schemas/\(answer)")])])]
                if doc.text { content["text/plain"] = .object(["schema": .object(["type": .string("string")])]) }
                responses[String(doc.status)] = .object(["description": .string(doc.summary), "content": .object(content)])
            } else {
                responses[String(doc.status)] = .object(["description": .string(doc.summary)])
            }
            if method == "GET" { responses["304"] = .object(["description": .string("Not modified since the ETag sent in If-None-Match")]) }
            if method == "PUT", pattern.hasPrefix("policies") {
                // Or, as for any write, an Idempotency-Key used before with another request (an Error).
                let refusal: JSONValue = .object(["anyOf": .array([.object(["$ref": .string("#/components/schemas/Refusal")]),
                                                                   .object(["$ref": .string("#/components/schemas/Error")])])])
                responses["422"] = .object(["description": .string("The script was refused: every failing check (or idempotency_key_reused)"),
                                            "content": .object(["application/json": .object(["schema": refusal])])])
            }
            if pattern == "habits/:name", method == "GET" {
                responses["422"] = .object(["description": .string("The habit's policy failed: its definition with the error"),
                                            "content": .object(["application/json": .object(["schema": .object(["$ref": .string("#/components/schemas/HabitDetail")])])])])
            }
            var operation: [String: JSONValue] = [
                "summary": .string(doc.summary), "operationId": .string(operationID(method, pattern)), "parameters": .array(parameters),
                "responses": .object(responses),
            ]
            if endpoint.isOpen { operation["security"] = .array([]) }
            func json(_ name: String) -> JSONValue { .object(["application/json": .object(["schema": .object(["$ref": .string("#/components/schemas/\(name)")])])]) }
            switch doc.body {
            case .json(let request)?:
                // A body is required when one of its fields is.
                operation["requestBody"] = .object(["required": .bool(request.httpFields.contains(where: \.isRequired)), "content": json(request.schemaName)])
            case .schema(let name)?:
                operation["requestBody"] = .object(["required": .bool(true), "content": json(name)])
            case .lua?:
                operation["requestBody"] = .object(["required": .bool(true), "content": .object([
                    "text/plain": .object(["schema": .object(["type": .string("string"), "minLength": .number(1)])]),
                ])])
            case nil: break
            }
            paths[path, default: [:]][method.lowercased()] = .object(operation)
        }
        paths["/healthz"] = ["get": .object([
            "summary": .string("Whether the server answers"), "operationId": .string("health"), "security": .array([]),
            "responses": .object(["200": .object(["description": .string("ok"), "content": .object(["text/plain": .object(["schema": .object(["type": .string("string")])])])])]),
        ])]
        paths["/openapi.json"] = ["get": .object([
            "summary": .string("This document"), "operationId": .string("openapi"), "security": .array([]),
            "responses": .object(["200": .object(["description": .string("The OpenAPI document"),
                                                  "content": .object(["application/json": .object(["schema": .object(["type": .string("object")])])])])]),
        ])]
        var schemas = ViewSchema.components
        for (name, body) in ViewSchema.bodies { schemas[name] = body }
        return .object([
            "openapi": .string("3.1.0"),
            "info": .object(["title": .string("StackDay"), "version": .string("1"),
                             "description": .string("Habits whose rules are Lua policies. Every JSON shape: docs/json.md; every error: the Error schema's codes.")]),
            "servers": .array([.object(["url": .string("/")])]),
            "security": .array([.object(["bearer": .array([])])]),
            "components": .object([
                "securitySchemes": .object(["bearer": .object(["type": .string("http"), "scheme": .string("bearer"),
                                                               "description": .string("A user's token from `stackday user add` (sd_ and 64 hex digits)")])]),
                "schemas": .object(schemas),
            ]),
            "paths": .object(paths.mapValues { JSONValue.object($0) }),
        ])
    }()

    /// `GET habits/:name/records` → `getHabitsNameRecords`.
    static func operationID(_ method: String, _ pattern: String) -> String {
        let words = pattern.split(whereSeparator: { $0 == "/" || $0 == ":" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return method.lowercased() + words.joined().replacingOccurrences(of: "-", with: "")
    }
}
