// RapiDoc ships a bundled script with no types: importing it registers <rapi-doc> (types/rapidoc.d.ts).
declare module "rapidoc";
