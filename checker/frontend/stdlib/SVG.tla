----------------------------- MODULE SVG -----------------------------
\* kipcheck's own text of the CommunityModules module SVG: SVG elements as records
\* [name, attrs, children, innerText]; the checker writes an element as SVG text natively.
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE Integers
LOCAL INSTANCE TLC
LOCAL INSTANCE FiniteSets
LOCAL IO == INSTANCE IOUtils

\* The fields of r1 and r2, r1's where both have one.
LOCAL Merge(r1, r2) ==
    [k \in DOMAIN r1 \cup DOMAIN r2 |-> IF k \in DOMAIN r1 THEN r1[k] ELSE r2[k]]

SVGElem(_name, _attrs, _children, _innerText) ==
    [name |-> _name, attrs |-> _attrs, children |-> _children, innerText |-> _innerText]

Line(x1, y1, x2, y2, attrs) ==
    SVGElem("line", Merge([x1 |-> ToString(x1), y1 |-> ToString(y1),
                           x2 |-> ToString(x2), y2 |-> ToString(y2)], attrs), <<>>, "")

Circle(cx, cy, r, attrs) ==
    SVGElem("circle", Merge([cx |-> ToString(cx), cy |-> ToString(cy), r |-> ToString(r)], attrs),
            <<>>, "")

Rect(x, y, w, h, attrs) ==
    SVGElem("rect", Merge([x |-> ToString(x), y |-> ToString(y), width |-> ToString(w),
                           height |-> ToString(h)], attrs), <<>>, "")

Text(x, y, text, attrs) ==
    SVGElem("text", Merge([x |-> ToString(x), y |-> ToString(y)], attrs), <<>>, text)

Image(x, y, width, height, href, attrs) ==
    SVGElem("image", Merge("xlink:href" :> href @@ "x" :> ToString(x) @@ "y" :> ToString(y)
                           @@ "width" :> ToString(width) @@ "height" :> ToString(height), attrs),
            <<>>, "")

Group(children, attrs) == SVGElem("g", attrs, children, "")

Svg(children, attrs) == SVGElem("svg", attrs, children, "")

SVGDoc(children, vbX, vbY, vbW, vbH, attrs) ==
    Svg(<<children>>,
        Merge("xmlns:xlink" :> "http://www.w3.org/1999/xlink"
              @@ "xmlns" :> "http://www.w3.org/2000/svg"
              @@ "viewBox" :> ToString(vbX) \o " " \o ToString(vbY) \o " " \o ToString(vbW)
                             \o " " \o ToString(vbH), attrs))

\* The element as SVG text.
SVGElemToString(elem) == CHOOSE s \in STRING : TRUE

\* The point on the line from `from' to `to' at 1/segment of its length.
PointOnLine(from, to, segment) ==
    [x |-> from.x + ((to.x - from.x) \div segment), y |-> from.y + ((to.y - from.y) \div segment)]

\* Writes the element to the file frameNamePrefix, frameNumber on three digits, ".svg".
SVGSerialize(svg, frameNamePrefix, frameNumber) ==
    IO!Serialize(SVGElemToString(svg), frameNamePrefix \o IO!zeroPadN(frameNumber, 3) \o ".svg",
                 [format |-> "TXT", charset |-> "UTF-8",
                  openOptions |-> <<"WRITE", "CREATE", "TRUNCATE_EXISTING">>])
=============================================================================
