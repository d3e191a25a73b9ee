package io.overseer.packagemap;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The string constants of a compiled class (its constant pool's {@code CONSTANT_String} entries): every
 * string literal, every constant expression the compiler folded ({@code "UPDATE t" + COLUMNS}), every
 * text block, and the recipes of concatenations with run-time parts (the {@code StringConcatFactory}
 * bootstrap arguments). Java 17 has no class-file API; the format is small enough to read here.
 */
final class ClassConstants {

    private ClassConstants() {
    }

    static List<String> strings(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> stringRefs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();                       // Utf8
                case 8 -> stringRefs.add(in.readUnsignedShort());       // String -> Utf8
                case 7, 16, 19, 20 -> in.readUnsignedShort();           // Class, MethodType, Module, Package
                case 15 -> in.skipBytes(3);                             // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();       // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> {                                          // Long, Double: two slots
                    in.readLong();
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
            }
        }
        return stringRefs.stream().map(ref -> utf8[ref]).toList();
    }
}
