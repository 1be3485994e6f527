"""JSON checked against a schema of jobscripts/schemas/ before any
arithmetic, with Debian's python3-jsonschema (well kept, and the standard's
own validator): a misspelled or missing field, a wrong type or an
impossible value is one line naming the file and the field. The modules
of jobscripts/ take ToolError from here too (tools/tool_errors.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "tools"))
from tool_errors import ToolError, load_json  # noqa: E402,F401 (the modules of jobscripts/ take them here)

SCHEMAS = os.path.join(os.path.dirname(os.path.realpath(__file__)), "schemas")


def checked(document, schema_name, path, what):
    """`document` (read from `path`) if it fits schemas/SCHEMA_NAME.json;
    otherwise a ToolError naming `path`, the field, and `what` it should be."""
    try:
        import jsonschema
    except ImportError:
        raise ToolError(f"{path}: checking {what} needs jsonschema, which {sys.executable} lacks "
                        "(Debian: apt-get install python3-jsonschema, for /usr/bin/python3)") from None
    schema = load_json(os.path.join(SCHEMAS, schema_name + ".json"))
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(document))
    if error is None:
        return document
    field = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        extra = sorted(set(error.instance) - set(known))
        raise ToolError(f"{path}: {', '.join(extra)}: no field of {what} (misspelled?); "
                        f"the fields are {', '.join(known)}")
    if error.validator == "required" or not field:
        raise ToolError(f"{path}: {field + ': ' if field else ''}{error.message} ({what})")
    about = schema.get("properties", {}).get(field, {}).get("description") or error.message
    raise ToolError(f"{path}: field {field}: {error.instance!r} is not allowed ({about})")
