------------------------------ MODULE IOUtils ------------------------------
\* kipcheck's own text of the CommunityModules module IOUtils. The checker evaluates IOEnv (the
\* environment variables, as a record), atoi, and Serialize/Deserialize of plain text files
\* natively; the operators that run processes or read Java's serialization format stop the
\* check with an error saying they are not supported.
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences
LOCAL INSTANCE SequencesExt

\* Writes val to a file in Java's serialization format (not supported).
IOSerialize(val, absoluteFilename, compress) == TRUE

\* Reads a value from a file in Java's serialization format (not supported).
IODeserialize(absoluteFilename, compressed) == CHOOSE val : TRUE

\* Writes value to dest as the serializer named by options.format says ("TXT": a string).
Serialize(value, dest, options) ==
    CHOOSE r \in [exitValue : Int, stdout : STRING, stderr : STRING] : TRUE

\* Reads src as the serializer named by options.format says ("TXT": a string).
Deserialize(src, options) == CHOOSE val : TRUE

\* Runs a process (not supported).
IOExec(command) == CHOOSE r \in [exitValue : Int, stdout : STRING, stderr : STRING] : TRUE

IOEnvExec(env, command) == CHOOSE r \in [exitValue : Int, stdout : STRING, stderr : STRING] : TRUE

IOExecTemplate(commandTemplate, parameters) ==
    CHOOSE r \in [exitValue : Int, stdout : STRING, stderr : STRING] : TRUE

IOEnvExecTemplate(env, commandTemplate, parameters) ==
    CHOOSE r \in [exitValue : Int, stdout : STRING, stderr : STRING] : TRUE

\* The process' environment variables.
IOEnv == CHOOSE r \in [STRING -> STRING] : TRUE

\* The number that the string str writes in decimal.
atoi(str) == CHOOSE i \in Int : ToString(i) = str

\* n in decimal, with leading zeros up to width digits.
zeroPadN(n, width) ==
    LET s == ToString(n)
        zeros == [i \in 1 .. (width - Len(s)) |-> "0"]
    IN  FoldLeft(LAMBDA acc, z : acc \o z, "", zeros) \o s
=============================================================================
