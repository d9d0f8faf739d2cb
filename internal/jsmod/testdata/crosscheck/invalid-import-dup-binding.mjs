import { a } from "x"; import { a } from "y";
