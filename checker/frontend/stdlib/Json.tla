-------------------------------- MODULE Json --------------------------------
\* kipcheck's own text of the CommunityModules module Json. The checker evaluates every
\* operator natively, as TLC's overrides do: values are written as JSON (records and functions
\* as objects, sequences and sets as arrays) and JSON is read back (objects as records, arrays
\* as sequences). A relative file name is resolved against the working directory, as in TLC.
LOCAL INSTANCE Sequences
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE TLC

\* value as a JSON text; as a JSON array; as a JSON object.
ToJson(value) == CHOOSE s \in STRING : TRUE

ToJsonArray(value) == CHOOSE s \in STRING : TRUE

ToJsonObject(value) == CHOOSE s \in STRING : TRUE

\* Writes value (a sequence or a record) to the file as JSON; equals TRUE.
JsonSerialize(absoluteFilename, value) == TRUE

\* The value of the JSON text in the file.
JsonDeserialize(absoluteFilename) == CHOOSE val : TRUE

\* Writes the elements of the sequence value to the file, one JSON text per line.
ndJsonSerialize(absoluteFilename, value) == TRUE

\* The sequence of the values of the file's lines, each a JSON text (blank lines skipped).
ndJsonDeserialize(absoluteFilename) == CHOOSE val : TRUE
=============================================================================
