// The API reference sits in the same frame as the guide pages: the app's name (the way back), every docs page, a main landmark.
export { default } from "../(guide)/layout";
